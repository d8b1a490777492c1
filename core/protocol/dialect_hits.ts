/**
 * Building blocks shared by the dialect readers: a hit from JSON, from
 * `<function=…>`, from an XML-like call, and the one-or-many rule.
 *
 * @module
 */
import type { ParseResult, ToolSpec } from "../../interfaces/tool.ts";
import { dialectResult } from "./dialect_call.ts";
import { callsOf, jsonEnd, tryJson } from "./dialect_json.ts";
import { functionCall, type XmlCall } from "./dialect_xml.ts";
import type { TextFind } from "./text_find.ts";

/** One call found in the reply. */
export interface DialectHit {
  dialect: string;
  start: number;
  end: number;
  result: ParseResult;
}

/** The result of the JSON value at `at` read as tool calls in `dialect`; `end` is the hit's end. */
export function jsonHit(
  dialect: string,
  text: string,
  start: number,
  at: number,
  regionEnd: number,
  specs: ReadonlyMap<string, ToolSpec>,
): DialectHit {
  const e = jsonEnd(text, at);
  const end = Math.max(regionEnd, e);
  const fail = (message: string): DialectHit => ({
    dialect,
    start,
    end: Math.max(end, at),
    result: { kind: "error", error: "unclosed", message, dialect },
  });
  if (e < 0) return fail("The JSON of the call does not close");
  const value = tryJson(text.slice(at, e));
  if (value === undefined) return fail("The JSON of the call is not valid JSON");
  const calls = callsOf(value);
  if (calls === null) {
    const message = 'Expected {"name": "<tool>", "arguments": {…}}';
    return {
      dialect,
      start,
      end,
      result: { kind: "error", error: "unknown_tool", message, dialect },
    };
  }
  return { dialect, start, end, result: manyOrOne(dialect, calls.map(xmlOf), specs) };
}

/** The result of one or more calls read in one dialect block. */
export function manyOrOne(
  dialect: string,
  calls: readonly XmlCall[],
  specs: ReadonlyMap<string, ToolSpec>,
): ParseResult {
  const first = dialectResult(dialect, calls[0].name, calls[0].params, specs);
  if (calls.length === 1) return first;
  const meant = first.kind === "call" ? first.call : undefined;
  return {
    kind: "error",
    error: "multiple_tool_calls",
    message: `The reply holds ${calls.length} calls; ${calls[0].name} was not run`,
    tool: calls[0].name,
    dialect,
    ...(meant ? { meant } : {}),
  };
}

/** A JSON call as the shape the XML readers give. */
export function xmlOf(c: { name: string; args: Record<string, unknown> }): XmlCall {
  return { name: c.name, params: c.args };
}

/** Reads `<function=…>` (Qwen3-Coder) or `<function=NAME>{json}` (Llama 3.1) at `body` of `find`'s text. */
export function functionHit(
  find: TextFind,
  start: number,
  body: number,
  end: number,
  specs: ReadonlyMap<string, ToolSpec>,
): DialectHit {
  const text = find.text;
  const gt = text.indexOf(">", body);
  const brace = gt < 0 ? -1 : skipSpace(text, gt + 1);
  if (brace >= 0 && brace < end && text[brace] === "{") {
    const name = text.slice(body, gt).trim();
    const e = jsonEnd(text, brace);
    const args = e < 0 ? undefined : tryJson(text.slice(brace, e));
    const call = typeof args === "object" && args !== null && !Array.isArray(args)
      ? { name, params: args as Record<string, unknown> }
      : null;
    return xmlHit("llama_function", call, start, Math.max(end, e), specs);
  }
  const call = functionCall(text.slice(body, end), find.part(body, end));
  return xmlHit("qwen3_coder", call, start, end, specs);
}

/** A hit from an XML-like call; null call: the marker was not followed by a call. */
export function xmlHit(
  dialect: string,
  call: XmlCall | null,
  start: number,
  end: number,
  specs: ReadonlyMap<string, ToolSpec>,
): DialectHit {
  if (call === null) {
    const message = "The call is not complete";
    return { dialect, start, end, result: { kind: "error", error: "unclosed", message, dialect } };
  }
  return { dialect, start, end, result: dialectResult(dialect, call.name, call.params, specs) };
}

/** Index of the first non-space character at or after `i` (or the text's length). */
export function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

/** The same result, marked as written in `dialect`. */
export function relabel(result: ParseResult, dialect: string): ParseResult {
  return result.kind === "none" ? result : { ...result, dialect };
}
