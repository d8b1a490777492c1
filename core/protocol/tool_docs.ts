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
    formatCall("tool_name", { parameter_name: "value" }),
    "- At most one tool call per reply; then stop: the result comes in the next message.",
    "- A reply without a tool call is your final answer and ends your turn.",
    "- Values are raw text: no escaping (&, <, >), no CDATA; <content> and <diff> may hold" +
    " any text, even XML. Start a multi-line value on the line after its tag.",
    "- Below, name? is optional, name... repeatable, and each tool ends with an example." +
    " Paths are relative to the working directory.",
    "- To mention a call without making it, put it in backticks: `<tool_call>`.",
  ].join("\n");
}

/**
 * One short section per tool: its name, description, parameters (`?`
 * optional, `...` repeatable) with their descriptions, and an example call
 * (the call itself, with no label: the section's last line or lines).
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
  const lines = [`## ${tool.name}`, oneLine(tool.description)];
  for (const p of tool.params) {
    const marks = `${p.multiple ? "..." : ""}${p.required ? "" : "?"}`;
    lines.push(`- ${p.name}${marks}: ${oneLine(p.description)}`);
  }
  const example = formatCall(tool.name, tool.example);
  const values = Object.values(tool.example);
  lines.push(values.some((v) => v.includes("\n")) ? example : example.replaceAll("\n", ""));
  return lines.join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
