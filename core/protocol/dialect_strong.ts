/**
 * Reads the call that follows a strong dialect marker (see `dialects.ts`).
 * Each reader looks at the call's own text only, once.
 *
 * @module
 */
import type { ToolSpec } from "../../interfaces/tool.ts";
import type { TextFind } from "./text_find.ts";
import { parseCanonical } from "./canonical_scan.ts";
import {
  type DialectHit,
  functionHit,
  jsonHit,
  manyOrOne,
  relabel,
  skipSpace,
  xmlHit,
} from "./dialect_hits.ts";
import { jsonEnd } from "./dialect_json.ts";
import { argKeyCall, invokeCall, type XmlCall } from "./dialect_xml.ts";
import { tryJson } from "./dialect_json.ts";

type Specs = ReadonlyMap<string, ToolSpec>;

/**
 * The hit at marker `marker` (at `p` in `find`'s text), or null when no call
 * follows it. Closing tags are searched through `find`, which remembers.
 */
export function strongHit(
  find: TextFind,
  p: number,
  marker: string,
  specs: Specs,
): DialectHit | null {
  const text = find.text;
  const after = p + marker.length;
  switch (marker) {
    case "<tool_call>":
      return wrapped(find, p, specs);
    case "<function_calls>":
      return invokes(find, after, p, endOf(find, "</function_calls>", after), specs);
    case "<function=":
      return functionHit(find, p, after, endOf(find, "</function>", after), specs);
    case "[TOOL_CALLS]":
      return mistral(text, p, after, specs);
    case "<|python_tag|>":
      return jsonAfter("llama3_json", text, p, after, specs);
    case "<|tool_call|>":
      return jsonAfter("granite", text, p, after, specs);
    case "<|plugin|>": {
      const hit = jsonAfter("internlm", text, p, after, specs);
      const start = text.endsWith("<|action_start|>", p) ? p - "<|action_start|>".length : p;
      return hit && { ...hit, start, end: endAfter(text, "<|action_end|>", hit.end) };
    }
    case "functools[":
      return jsonAfter("phi4_functools", text, p, after - 1, specs);
    case "<|tool_calls_section_begin|>":
    case "<|tool_call_begin|>":
      return kimi(text, p, endOf(find, "<|tool_calls_section_end|>", after), specs);
    case "<｜tool▁calls▁begin｜>":
    case "<｜tool▁call▁begin｜>":
      return deepseek(text, p, endOf(find, "<｜tool▁calls▁end｜>", after), specs);
  }
  // `<invoke ` without `<function_calls>`.
  return invokes(find, p, p, endOf(find, "</invoke>", after), specs);
}

/** End of the first `closer` at or after `from` (the text's end when there is none). */
function endOf(find: TextFind, closer: string, from: number): number {
  const i = find.indexOf(closer, from);
  return i < 0 ? find.text.length : i + closer.length;
}

/** `end`, extended over `closer` when it follows after spaces. */
function endAfter(text: string, closer: string, end: number): number {
  const q = skipSpace(text, end);
  return text.startsWith(closer, q) ? q + closer.length : end;
}

/** `<tool_call>` followed by JSON, `<function=`, `<invoke`, GLM's name line, or a canonical element. */
function wrapped(find: TextFind, p: number, specs: Specs): DialectHit | null {
  const text = find.text;
  const body = p + "<tool_call>".length;
  const close = find.indexOf("</tool_call>", body);
  const end = close < 0 ? text.length : close + "</tool_call>".length;
  const q = skipSpace(text, body);
  const c = text[q];
  if (c === "{" || c === "[") return jsonHit("hermes_json", text, p, q, end, specs);
  if (text.startsWith("<function=", q)) return functionHit(find, p, q + 10, end, specs);
  if (text.startsWith("<function_calls>", q) || text.startsWith("<invoke", q)) {
    return invokes(find, q, p, end, specs);
  }
  if (c === "<") {
    // A canonical call the canonical scanner did not take (it was not the first).
    const result = parseCanonical(text.slice(p, end), [...specs.values()]);
    return result.kind === "none" ? null : { dialect: "canonical", start: p, end, result };
  }
  const bodyEnd = close < 0 ? end : close;
  const call = argKeyCall(text.slice(q, bodyEnd), find.part(q, bodyEnd));
  return call === null ? null : xmlHit("glm4", call, p, end, specs);
}

/** One or more `<invoke name="…">` elements between `from` and `end` (the hit starts at `p`). */
function invokes(
  find: TextFind,
  from: number,
  p: number,
  end: number,
  specs: Specs,
): DialectHit | null {
  const first = find.indexOf("<invoke", from);
  if (first < 0 || first >= end) return null;
  const parts = find.text.slice(first, end).split("<invoke").slice(1);
  if (parts.length === 0) return null;
  const calls = parts.map(invokeCall);
  if (calls.some((c) => c === null)) return xmlHit("anthropic_xml", null, p, end, specs);
  return {
    dialect: "anthropic_xml",
    start: p,
    end,
    result: manyOrOne("anthropic_xml", calls as XmlCall[], specs),
  };
}

function jsonAfter(
  dialect: string,
  text: string,
  p: number,
  at: number,
  specs: Specs,
): DialectHit | null {
  const q = skipSpace(text, at);
  if (text[q] !== "{" && text[q] !== "[") return null;
  return jsonHit(dialect, text, p, q, q, specs);
}

/** `[TOOL_CALLS][{…}]`, or the newer `[TOOL_CALLS]NAME[ARGS]{…}` (with an optional `[CALL_ID]…`). */
function mistral(text: string, p: number, after: number, specs: Specs): DialectHit | null {
  const json = jsonAfter("mistral", text, p, after, specs);
  if (json !== null) return json;
  const m = /^\s*([A-Za-z_][\w.-]*)(?:\[CALL_ID\][^[]*)?\[ARGS\]/.exec(
    text.slice(after, after + 200),
  );
  if (m === null) return null;
  const q = skipSpace(text, after + m[0].length);
  const e = jsonEnd(text, q);
  const args = e < 0 ? undefined : tryJson(text.slice(q, e));
  const call = typeof args === "object" && args !== null && !Array.isArray(args)
    ? { name: m[1], params: args as Record<string, unknown> }
    : null;
  return xmlHit("mistral", call, p, e < 0 ? text.length : e, specs);
}

/** Kimi K2: `<|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`. */
function kimi(text: string, p: number, end: number, specs: Specs): DialectHit | null {
  const parts = text.slice(p, end).split("<|tool_call_begin|>").slice(1);
  const calls: (XmlCall | null)[] = parts.map((part) => {
    const [head, rest = ""] = part.split("<|tool_call_argument_begin|>");
    const name = head.trim().replace(/^functions\./, "").replace(/:\d+$/, "");
    const args = tryJson(rest.split("<|tool_call_end|>")[0].trim());
    return typeof args === "object" && args !== null
      ? { name, params: args as Record<string, unknown> }
      : null;
  });
  return oneOrMany("kimi_k2", calls, p, end, specs);
}

/** DeepSeek V3/R1: `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME` and a JSON fence, or `NAME<｜tool▁sep｜>{…}`. */
function deepseek(text: string, p: number, end: number, specs: Specs): DialectHit | null {
  const parts = text.slice(p, end).split("<｜tool▁call▁begin｜>").slice(1);
  const calls: (XmlCall | null)[] = parts.map((part) => {
    const [head, rest = ""] = part.split("<｜tool▁sep｜>");
    const body = rest.split("<｜tool▁call▁end｜>")[0];
    const nl = body.search(/[\n{`]/);
    const name = head.trim() === "function"
      ? body.slice(0, nl < 0 ? body.length : nl).trim()
      : head.trim();
    const brace = body.indexOf("{");
    const e = brace < 0 ? -1 : jsonEnd(body, brace);
    const args = e < 0 ? undefined : tryJson(body.slice(brace, e));
    return typeof args === "object" && args !== null
      ? { name, params: args as Record<string, unknown> }
      : null;
  });
  return oneOrMany("deepseek", calls, p, end, specs);
}

function oneOrMany(
  dialect: string,
  calls: (XmlCall | null)[],
  p: number,
  end: number,
  specs: Specs,
): DialectHit | null {
  if (calls.length === 0) return null;
  if (calls.some((c) => c === null)) return xmlHit(dialect, null, p, end, specs);
  const result = manyOrOne(dialect, calls as XmlCall[], specs);
  return { dialect, start: p, end, result: relabel(result, dialect) };
}
