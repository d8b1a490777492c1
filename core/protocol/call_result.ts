/**
 * The result of a scanned canonical call whose tool is known: its values cut
 * out (`params.ts`), or what is wrong with it, in the scanner's order of
 * errors (`unclosed`, `multiple_tool_calls`, `missing_param`).
 *
 * @module
 */
import type { ParseErrorKind, ParseResult, ToolSpec } from "../../interfaces/tool.ts";
import type { CallScanBody } from "./call_scan.ts";
import { readParams, type Slicer } from "./params.ts";

/**
 * Reads the call scanned by `body` whose body ends at `bodyEnd`; `text` is
 * the whole reply (flat, searched once for the bulk value's last closing
 * tag), `slice` cuts values out of it, `second` tells whether another
 * `<tool_call>` followed.
 *
 * @example
 * ```ts
 * callResult(tool, body, body.bodyEnd, false, text, (a, b) => text.slice(a, b));
 * // { kind: "call", call: { tool: "write_to_file", params: { path: "a.md", ... } } }
 * ```
 */
export function callResult(
  tool: ToolSpec,
  body: CallScanBody,
  bodyEnd: number,
  second: boolean,
  text: string,
  slice: Slicer,
): ParseResult {
  const name = body.name;
  const fail = (error: ParseErrorKind, message: string) => failure(error, message, name);
  body.completeBulk(text, bodyEnd);
  const read = readParams(tool, body.tokens, bodyEnd, slice);
  if (!read.ok) {
    return fail("unclosed", `<${read.open}> of ${name} is not closed before </${name}>`);
  }
  if (second) {
    return fail(
      "multiple_tool_calls",
      `The reply holds more than one <tool_call>; ${name} was not run`,
    );
  }
  const missing = tool.params.filter((p) => p.required && !(p.name in read.params));
  if (missing.length > 0) {
    return fail(
      "missing_param",
      `${name} is missing ${missing.map((p) => `<${p.name}>`).join(", ")}`,
    );
  }
  return { kind: "call", call: { tool: name, params: read.params } };
}

/** An error result, naming the tool when it is known. */
export function failure(error: ParseErrorKind, message: string, tool?: string): ParseResult {
  return tool === undefined
    ? { kind: "error", error, message }
    : { kind: "error", error, message, tool };
}
