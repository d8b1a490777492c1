/**
 * The text that names a call and carries its result back to the model:
 * `write_to_file notes.md` and `[write_to_file notes.md] Result:\n…`. Used
 * by the loop, by resuming a recorded conversation and by replay.
 *
 * @example
 * ```ts
 * resultMessage({ tool: "read_file", params: { path: "a.md" } }, result);
 * // "[read_file a.md] Result:\n…"
 * ```
 * @module
 */
import type { ToolCall, ToolResult } from "../../interfaces/tool.ts";

const MAIN_PARAMS = ["path", "command", "pattern", "name", "id", "question", "directory"];

/** `write_to_file notes.md`: the tool and its main parameter. */
export function callSummary(call: ToolCall): string {
  for (const p of MAIN_PARAMS) {
    const v = call.params[p];
    if (v !== undefined) {
      const text = Array.isArray(v) ? v.join(", ") : v;
      const line = text.split("\n")[0];
      return `${call.tool} ${line.length > 80 ? line.slice(0, 77) + "..." : line}`;
    }
  }
  return call.tool;
}

/** The next user message: the result labelled with the tool and its main parameter. */
export function resultMessage(call: ToolCall, result: ToolResult): string {
  const status = result.ok ? "Result" : `Error${result.code ? ` (${result.code})` : ""}`;
  return `[${callSummary(call)}] ${status}:\n${result.output}`;
}
