/**
 * What the model is told when its reply is not a valid tool call: the error,
 * what was expected, and one short correct call to copy.
 *
 * @module
 */
import type { AnyTool, ParseResult } from "../../interfaces/tool.ts";

/**
 * Renders a correct call. A value with a line break goes on its own lines
 * (the parser strips exactly that one leading and trailing newline, so the
 * call round-trips); a list repeats the element.
 *
 * @example
 * ```ts
 * formatCall("read_file", { path: "src/main.ts" });
 * // <tool_call>\n<read_file>\n<path>src/main.ts</path>\n</read_file>\n</tool_call>
 * ```
 */
export function formatCall(
  tool: string,
  params: Readonly<Record<string, string | readonly string[]>>,
): string {
  const lines = ["<tool_call>", `<${tool}>`];
  for (const [name, value] of Object.entries(params)) {
    for (const v of typeof value === "string" ? [value] : value) {
      lines.push(v.includes("\n") ? `<${name}>\n${v}\n</${name}>` : `<${name}>${v}</${name}>`);
    }
  }
  lines.push(`</${tool}>`, "</tool_call>");
  return lines.join("\n");
}

/**
 * The message sent back to the model for a parse error: names the error, says
 * what was expected, and shows one short correct call for the tool concerned
 * (for an unknown tool: the known tools and the closest one's example). When
 * the parser could read what the model meant (in any dialect), that very call
 * is shown in the canonical form instead of the example.
 */
export function parseErrorMessage(
  result: Extract<ParseResult, { kind: "error" }>,
  tools: readonly AnyTool[],
): string {
  const tool = tools.find((t) => t.name === result.tool) ?? closest(result.tool ?? "", tools);
  const lines = [`Tool call error (${result.error}): ${what(result, tools)}`];
  if (result.dialect !== undefined && result.dialect !== "canonical") {
    lines.push(`Your call was written in the "${result.dialect}" format; use minoc's own form.`);
  }
  // A call with nothing the tool takes shows the tool's example instead.
  const meant = result.meant && Object.keys(result.meant.params).length > 0
    ? result.meant
    : undefined;
  if (tool !== undefined) {
    lines.push(
      `${tool.name} takes ${paramList(tool)}. ${
        meant ? "What you meant, in the right form" : "A correct call"
      }:`,
    );
    lines.push(meant ? formatCall(meant.tool, meant.params) : formatCall(tool.name, tool.example));
  }
  lines.push(
    "Nothing was run. Make one call per reply; a reply without a call is your final answer.",
  );
  return lines.join("\n");
}

function what(r: Extract<ParseResult, { kind: "error" }>, tools: readonly AnyTool[]): string {
  const names = tools.map((t) => t.name).join(", ");
  switch (r.error) {
    case "unknown_tool":
      return r.tool === undefined
        ? `<tool_call> must be followed directly by a tool element. Known tools: ${names}.`
        : `"${r.tool}" is not a tool. Known tools: ${names}.`;
    case "unclosed":
      if (r.message.startsWith("The JSON")) return `${lowerFirst(r.message)}.`;
      return `the call is incomplete: ${lowerFirst(r.message)}. Close every parameter, ` +
        `then </${r.tool ?? "tool_name"}> and </tool_call>. If your reply was cut off, ` +
        "make the call shorter.";
    case "multiple_tool_calls":
      return "the reply holds more than one <tool_call>. Make one call, then wait for its " +
        "result in the next message.";
    case "missing_param":
      return `${r.message}.`;
  }
}

/** Each parameter with what it holds (the prompt's usage line names them only). */
function paramList(tool: AnyTool): string {
  if (tool.params.length === 0) return "no parameters";
  return tool.params.map((p) =>
    `<${p.name}>${p.required ? "" : " (optional)"}: ${p.description.replace(/\s+/g, " ").trim()}`
  ).join("; ");
}

function lowerFirst(text: string): string {
  return text.length === 0 ? text : text[0].toLowerCase() + text.slice(1);
}

/** The tool whose name is nearest to `name` (edit distance), if any is near enough. */
function closest(name: string, tools: readonly AnyTool[]): AnyTool | undefined {
  let best: AnyTool | undefined;
  let bestDistance = Infinity;
  for (const t of tools) {
    const d = distance(name.toLowerCase(), t.name);
    if (d < bestDistance) [best, bestDistance] = [t, d];
  }
  return name !== "" && bestDistance <= Math.max(3, name.length / 2) ? best : tools[0];
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
