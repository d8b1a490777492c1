/**
 * The XML-like dialects other than minoc's own: Qwen3-Coder's
 * `<function=NAME><parameter=P>v</parameter></function>`, Anthropic-style
 * `<invoke name="NAME"><parameter name="P">v</parameter></invoke>` and
 * GLM-4.5's `NAME<arg_key>P</arg_key><arg_value>v</arg_value>`.
 *
 * A value runs from its opening tag to the next parameter's opening tag (or
 * the end of the call), less its last closing tag there, so it may contain
 * its own closing tag; one newline is stripped at each edge, nothing decoded.
 *
 * @module
 */
import { type RawParams, ValueList } from "./dialect_call.ts";
import type { Search } from "./text_find.ts";

/** One call read from XML-like text. */
export interface XmlCall {
  name: string;
  params: RawParams;
}

/**
 * Reads `body` as `<function=NAME>` parameters (`body` starts just after the
 * `=` and runs to the end of the call). Null when there is no `>` after NAME.
 * `search`: `body.indexOf`, or a search that answers the same faster.
 */
export function functionCall(body: string, search?: Search): XmlCall | null {
  const gt = body.indexOf(">");
  if (gt < 0) return null;
  const name = body.slice(0, gt).trim();
  let rest = body.slice(gt + 1);
  const close = rest.lastIndexOf("</function>");
  if (close >= 0) rest = rest.slice(0, close);
  const inRest = shifted(rest, search, gt + 1);
  return { name, params: pairs(rest, "<parameter=", ">", "</parameter>", inRest) };
}

/** Reads `body` (just after `<invoke`) as `name="NAME">` and `<parameter name="P">` values. */
export function invokeCall(body: string): XmlCall | null {
  const m = /^\s+name\s*=\s*["']([^"']*)["']\s*>/.exec(body);
  if (m === null) return null;
  let rest = body.slice(m[0].length);
  const close = rest.lastIndexOf("</invoke>");
  if (close >= 0) rest = rest.slice(0, close);
  const raw = pairs(rest, "<parameter name=", ">", "</parameter>", inText(rest));
  const params: RawParams = {};
  for (const [k, v] of Object.entries(raw)) params[k.replace(/^["']|["']$/g, "")] = v;
  return { name: m[1], params };
}

/** Reads GLM-4.5's `NAME` line and `<arg_key>`/`<arg_value>` pairs (`search` as for {@link functionCall}). */
export function argKeyCall(body: string, search?: Search): XmlCall | null {
  // The name, then only spaces up to the first `<arg_key>` or the end: decided
  // without reading further (a `<tool_call>` followed by prose is not read whole).
  const head = /^\s*([A-Za-z_][\w.-]*)\s*/.exec(body);
  if (head === null) return null;
  const first = head[0].length;
  if (first < body.length && !body.startsWith("<arg_key>", first)) return null;
  const name = head[1];
  const params: RawParams = {};
  if (first === body.length) return { name, params };
  const rest = body.slice(first);
  for (const part of after(rest, "<arg_key>", shifted(rest, search, first))) {
    const k = part.indexOf("</arg_key>");
    if (k < 0) continue;
    let value = part.slice(k + "</arg_key>".length);
    const v = value.indexOf("<arg_value>");
    if (v < 0) continue;
    value = value.slice(v + "<arg_value>".length);
    const end = value.lastIndexOf("</arg_value>");
    params[part.slice(0, k).trim()] ??= trimEdges(end < 0 ? value : value.slice(0, end));
  }
  return { name, params };
}

/**
 * `opener KEY close value closer` pairs; each value runs to the next opener,
 * less its last `closer`. A key given twice keeps its first value, or becomes
 * a list (for list parameters) when the caller wants one.
 */
function pairs(
  text: string,
  opener: string,
  close: string,
  closer: string,
  search: Search,
): RawParams {
  const params: RawParams = {};
  for (const part of after(text, opener, search)) {
    const k = part.indexOf(close);
    if (k < 0) continue;
    const key = part.slice(0, k).trim();
    let value = part.slice(k + close.length);
    const end = value.lastIndexOf(closer);
    if (end >= 0) value = value.slice(0, end);
    const v = trimEdges(value);
    const prev = params[key];
    if (prev === undefined) params[key] = v;
    else if (prev instanceof ValueList) prev.push(v);
    else params[key] = ValueList.of(prev as string, v);
  }
  return params;
}

/** What follows each `opener` in `text`, up to the next (`text.split(opener).slice(1)`). */
function after(text: string, opener: string, search: Search): string[] {
  const parts: string[] = [];
  for (let at = search(opener, 0); at >= 0;) {
    const from = at + opener.length;
    const next = search(opener, from);
    parts.push(text.slice(from, next < 0 ? text.length : next));
    at = next;
  }
  return parts;
}

/**
 * A search in `text`, which starts `offset` characters into what `search`
 * searches; `text.indexOf` without one.
 */
function shifted(text: string, search: Search | undefined, offset: number): Search {
  if (search === undefined) return inText(text);
  return (n, f) => {
    const i = search(n, f + offset);
    return i < 0 || i - offset + n.length > text.length ? -1 : i - offset;
  };
}

/** `text.indexOf` as a {@link Search}. */
function inText(text: string): Search {
  return (needle, from) => text.indexOf(needle, from);
}

/** Strips one leading and one trailing newline (`\r\n` counts as one). */
function trimEdges(v: string): string {
  let s = v;
  if (s.startsWith("\r\n")) s = s.slice(2);
  else if (s.startsWith("\n")) s = s.slice(1);
  if (s.endsWith("\r\n")) s = s.slice(0, -2);
  else if (s.endsWith("\n")) s = s.slice(0, -1);
  return s;
}
