/**
 * The tool catalogue as compact XML usage docs for the system prompt,
 * generated from the tool definitions themselves (name, description,
 * parameters, example), plus the rules of the call protocol.
 *
 * @module
 */
import type { AnyTool } from "../../interfaces/tool.ts";
import { formatCall } from "./feedback.ts";

/**
 * The protocol preamble: how to write a call and what a reply without one
 * means. Kept short; the tool docs follow it.
 */
export function renderProtocolRules(): string {
  return [
    "# Tools",
    "You act by calling tools. To call one, write this XML in your reply:",
    formatCall("tool_name", { parameter_name: "value", other_parameter: "value" }),
    "Rules:",
    "- In the signatures below, ? marks an optional parameter and ... one you may repeat.",
    "- At most one tool call per reply. After it, stop: the result comes back in the next message.",
    "- A reply without a tool call is your final answer to the user and ends your turn.",
    "- Values are raw text: never escape &, < or > and do not use CDATA. Put a multi-line" +
    " value on the lines after its opening tag; one leading and one trailing line break are removed.",
    "- <content> and <diff> may contain any text, including XML. Give every required parameter.",
    "- To mention a call without making it, put it in backticks: `<tool_call>`.",
  ].join("\n");
}

/**
 * One short section per tool: its signature (`?` optional, `...`
 * repeatable), description, parameter descriptions and an example call.
 *
 * @example
 * ```ts
 * const prompt = `${renderProtocolRules()}\n\n${renderToolDocs(tools)}`;
 * ```
 */
export function renderToolDocs(tools: readonly AnyTool[]): string {
  return tools.map(renderTool).join("\n\n");
}

function renderTool(tool: AnyTool): string {
  const signature = tool.params.map((p) =>
    `${p.name}${p.multiple ? "..." : ""}${p.required ? "" : "?"}`
  );
  const lines = [`## ${tool.name}(${signature.join(", ")})`, oneLine(tool.description)];
  for (const p of tool.params) lines.push(`- ${p.name}: ${oneLine(p.description)}`);
  const example = formatCall(tool.name, tool.example);
  const values = Object.values(tool.example);
  if (values.some((v) => v.includes("\n"))) lines.push("Example:", example);
  else lines.push(`Example: ${example.replaceAll("\n", "")}`);
  return lines.join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
