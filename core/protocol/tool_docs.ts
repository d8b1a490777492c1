/**
 * The tool catalogue for the system prompt, generated from the tool
 * definitions themselves, plus the rules of the call protocol.
 *
 * Each tool gets one usage line: its name, its parameter elements named once
 * (`?` optional, `...` repeatable) and its description, which says what the
 * parameters mean where their names do not. The XML form is shown once in
 * the rules, and full example calls only of the tools the caller picks (the
 * prompt shows the SEARCH/REPLACE layout, which no usage line can).
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
    "To call a tool, write this XML in your reply, one element per parameter:",
    formatCall("tool_name", { parameter_name: "value" }),
    "- At most one tool call per reply; then stop: its result comes in the next message." +
    " A reply without a tool call is your final answer and ends your turn.",
    "- Values are raw text (no escaping, no CDATA); <content> and <diff> may hold any text," +
    " even XML. Start a multi-line value on the line after its tag.",
    "- Paths are relative to the working directory. To mention a call without making it," +
    " put it in backticks: `<tool_call>`.",
    "- Each tool: name <parameter>, ? optional, ... repeatable.",
  ].join("\n");
}

/**
 * One usage line per tool, then example calls: of the tools named in
 * `examples` (default: the first tool), skipping those not in `tools`.
 *
 * @example
 * ```ts
 * const prompt = `${renderProtocolRules()}\n\n${renderToolDocs(tools, ["replace_in_file"])}`;
 * // read_file <path> <start_line>? <end_line>?: Read a text file, …
 * ```
 */
export function renderToolDocs(
  tools: readonly AnyTool[],
  examples: readonly string[] = tools.slice(0, 1).map((t) => t.name),
): string {
  const shown = tools.filter((t) => examples.includes(t.name)).map(exampleCall);
  const label = shown.length === 1 ? "Example:" : "Examples:";
  return [...tools.map(usageLine), ...(shown.length ? [label, ...shown] : [])].join("\n");
}

/** `name <param> <param>?: description`, on one line. */
export function usageLine(tool: AnyTool): string {
  const params = tool.params.map((p) =>
    ` <${p.name}>${p.multiple ? "..." : ""}${p.required ? "" : "?"}`
  );
  return `${tool.name}${params.join("")}: ${oneLine(tool.description)}`;
}

/** A tool's example call: on one line unless a value has a line break. */
export function exampleCall(tool: AnyTool): string {
  const call = formatCall(tool.name, tool.example);
  return multiLine(tool) ? call : call.replaceAll("\n", "");
}

function multiLine(tool: AnyTool): boolean {
  return Object.values(tool.example).some((v) => v.includes("\n"));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
