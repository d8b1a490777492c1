/**
 * Finds the tool calls a reply holds in the dialects open models are trained
 * on (the table is in the README, section "Any model"). Strong dialects have
 * a marker of their own (`<tool_call>{…}`, `<function=…>`, `[TOOL_CALLS]`,
 * `<|python_tag|>`, …) and count wherever they stand outside inline code and
 * reasoning; weak ones (a JSON object naming a known tool, a bare tool
 * element) count only when they end the reply, so an example quoted in the
 * middle of prose is never taken.
 *
 * Run once on the whole reply at its end: each marker is found by one
 * regular-expression pass and each call's text is read once.
 *
 * @module
 */
import type { ToolSpec } from "../../interfaces/tool.ts";
import { parseCanonical } from "./canonical_scan.ts";
import { callsOf, jsonEnd, tryJson } from "./dialect_json.ts";
import type { ClearSpans } from "./clear_spans.ts";
import type { NotedSpans } from "./noted_spans.ts";
import { MaskCursor, maskedSpans, type Span } from "./dialect_mask.ts";
import { type DialectHit, manyOrOne, relabel, xmlOf } from "./dialect_hits.ts";
import { strongHit } from "./dialect_strong.ts";
import { TextFind } from "./text_find.ts";
import { pythonCalls } from "./dialect_python.ts";

export type { DialectHit };

/** Every dialect id, for help texts and the README. */
export const DIALECTS = [
  "canonical",
  "hermes_json",
  "qwen3_coder",
  "llama_function",
  "anthropic_xml",
  "glm4",
  "mistral",
  "llama3_json",
  "granite",
  "internlm",
  "kimi_k2",
  "deepseek",
  "phi4_functools",
  "pythonic",
  "json_fence",
  "bare_json",
  "bare_xml",
] as const;

const STRONG = new RegExp(
  [
    "<tool_call>",
    "<function_calls>",
    "<function=",
    "<invoke\\s",
    "\\[TOOL_CALLS\\]",
    "<\\|python_tag\\|>",
    "<\\|tool_call\\|>",
    "<\\|plugin\\|>",
    "<\\|tool_calls_section_begin\\|>",
    "<\\|tool_call_begin\\|>",
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>",
    "functools\\[",
  ].join("|"),
  "g",
);

/** Strong markers without a call after them that are looked at, at most. */
const MAX_MISSES = 8;

/**
 * The calls in `text` outside `skip` (the canonical call, found by the
 * canonical scanner), in order. `clear`: spans of `text` the stream showed
 * to hold no tag named `t…` or `r…` (see `clear_spans.ts`); `notes`: spans
 * where it noted every `<a…` and `<p…` tag (`noted_spans.ts`).
 */
export function findDialectCalls(
  text: string,
  specs: ReadonlyMap<string, ToolSpec>,
  skip: Span | null,
  clear: ClearSpans,
  notes?: NotedSpans,
): DialectHit[] {
  const masks = maskedSpans(text, clear);
  if (skip !== null) {
    masks.push(skip);
    masks.sort((a, b) => a.start - b.start);
  }
  const cursor = new MaskCursor(masks);
  const hits: DialectHit[] = [];
  const re = new RegExp(STRONG);
  const find = new TextFind(text, clear, notes);
  let misses = 0;
  // Two calls decide the reply (multiple_tool_calls); markers that lead to no
  // call each read up to their closer, so only a few are tried (linear work).
  for (let m = re.exec(text); m !== null && hits.length < 2; m = re.exec(text)) {
    const masked = cursor.at(m.index);
    if (masked !== null) {
      re.lastIndex = Math.max(masked.end, m.index + 1);
      continue;
    }
    const hit = strongHit(find, m.index, m[0], specs);
    if (hit === null) {
      if (++misses > MAX_MISSES) break;
      continue;
    }
    hits.push(hit);
    re.lastIndex = Math.max(hit.end, m.index + 1);
  }
  let from = hits.length > 0 ? hits[hits.length - 1].end : 0;
  if (skip !== null) from = Math.max(from, skip.end);
  const weak = weakAtEnd(text, specs, new MaskCursor(masks), from);
  if (weak !== null) hits.push(weak);
  return hits;
}

/** A weak dialect that ends the reply: a JSON object naming a known tool, or a bare tool element. */
function weakAtEnd(
  text: string,
  specs: ReadonlyMap<string, ToolSpec>,
  cursor: MaskCursor,
  from: number,
): DialectHit | null {
  let tail = trimEnd(text, text.length);
  if (text.endsWith("```", tail)) tail = trimEnd(text, tail - 3);
  if (tail <= from) return null;
  const last = text[tail - 1];
  if (last === "}" || last === "]") {
    const json = jsonAtEnd(text, specs, cursor, from, tail);
    return json ?? (last === "]" ? pythonAtEnd(text, specs, cursor, from, tail) : null);
  }
  if (last === ">") return elementAtEnd(text, specs, cursor, from, tail);
  return null;
}

function jsonAtEnd(
  text: string,
  specs: ReadonlyMap<string, ToolSpec>,
  cursor: MaskCursor,
  from: number,
  tail: number,
): DialectHit | null {
  let budget = 2 * text.length; // characters jsonEnd may read in all: linear work
  for (let ls = from; ls < tail;) {
    const q = skipBlanks(text, ls);
    const c = text[q];
    if ((c === "{" || c === "[") && cursor.at(q) === null) {
      const e = jsonEnd(text, q);
      budget -= (e < 0 ? text.length : e) - q;
      if (e === tail) return weakJson(text, specs, q, tail);
      if (budget < 0) return null;
      if (e > q) {
        ls = e;
        continue;
      }
    }
    const nl = text.indexOf("\n", q);
    if (nl < 0) break;
    ls = nl + 1;
  }
  return null;
}

function weakJson(
  text: string,
  specs: ReadonlyMap<string, ToolSpec>,
  q: number,
  tail: number,
): DialectHit | null {
  const calls = callsOf(tryJson(text.slice(q, tail)));
  if (calls === null || !calls.every((c) => specs.has(c.name))) return null;
  const before = text.slice(Math.max(0, q - 16), q);
  const fenced = /```[a-zA-Z_]*[ \t]*\r?\n[ \t]*$/.exec(before);
  const start = fenced === null ? q : q - fenced[0].length;
  const dialect = fenced === null ? "bare_json" : "json_fence";
  return { dialect, start, end: text.length, result: manyOrOne(dialect, calls.map(xmlOf), specs) };
}

function elementAtEnd(
  text: string,
  specs: ReadonlyMap<string, ToolSpec>,
  cursor: MaskCursor,
  from: number,
  tail: number,
): DialectHit | null {
  const m = /<\/([A-Za-z_][\w-]*)>$/.exec(text.slice(Math.max(from, tail - 70), tail));
  if (m === null || !specs.has(m[1])) return null;
  const open = `<${m[1]}>`;
  let at = text.indexOf(open, from);
  while (at >= 0 && at < tail && cursor.at(at) !== null) at = text.indexOf(open, at + 1);
  if (at < 0 || at >= tail) return null;
  const result = parseCanonical(`<tool_call>${text.slice(at, tail)}</tool_call>`, [
    ...specs.values(),
  ]);
  const out = relabel(result, "bare_xml");
  const fenced = /```[a-zA-Z_]*[ \t]*\r?\n[ \t]*$/.exec(text.slice(Math.max(0, at - 16), at));
  return {
    dialect: "bare_xml",
    start: fenced ? at - fenced[0].length : at,
    end: text.length,
    result: out,
  };
}

/** A pythonic call list `[name(k="v")]` on the reply's last lines, naming known tools. */
function pythonAtEnd(
  text: string,
  specs: ReadonlyMap<string, ToolSpec>,
  cursor: MaskCursor,
  from: number,
  tail: number,
): DialectHit | null {
  const re = /^[ \t]*\[[A-Za-z_][\w.]*\(/gm;
  re.lastIndex = from;
  // A few tries at most: the list is on the last lines of the reply.
  for (let m = re.exec(text), tries = 0; m !== null && m.index < tail && tries < 16; tries++) {
    const q = m.index + m[0].indexOf("[");
    const calls = cursor.at(q) === null ? pythonCalls(text.slice(q, tail)) : null;
    if (calls !== null && calls.every((c) => specs.has(c.name))) {
      const result = manyOrOne("pythonic", calls, specs);
      return { dialect: "pythonic", start: q, end: text.length, result };
    }
    m = re.exec(text);
  }
  return null;
}

function trimEnd(text: string, i: number): number {
  while (i > 0 && /\s/.test(text[i - 1])) i--;
  return i;
}

function skipBlanks(text: string, i: number): number {
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  return i;
}
