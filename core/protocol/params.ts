/**
 * Cuts parameter values out of a scanned call (rules 4–6): values in any
 * order, a plain value runs to its first closing tag, a bulk value to its last
 * closing tag before the end of the call; one leading and one trailing newline
 * stripped, a lone CDATA section unwrapped, nothing decoded.
 *
 * @module
 */
import type { ToolSpec } from "../../interfaces/tool.ts";
import type { Tokens } from "./call_scan.ts";

/** The parameters of a call, or the parameter left open. */
export type ReadParams =
  | { ok: true; params: Record<string, string | string[]> }
  | { ok: false; open: string };

/** The reply's text between two absolute positions (end exclusive). */
export type Slicer = (a: number, b: number) => string;

/**
 * Reads the parameters whose tags lie before `bodyEnd` (the start of the
 * `</NAME>` that ends the call). A non-multiple parameter given twice keeps
 * its first value; unknown elements are not tokens, so they are ignored.
 */
export function readParams(
  tool: ToolSpec,
  t: Tokens,
  bodyEnd: number,
  slice: Slicer,
): ReadParams {
  let m = 0;
  while (m < t.count && t.start[m] < bodyEnd) m++;
  const lastClose = new Int32Array(tool.params.length).fill(-1);
  for (let k = 0; k < m; k++) if (t.close[k]) lastClose[t.param[k]] = k;
  const values: (string | string[] | undefined)[] = new Array(tool.params.length);
  let i = 0;
  while (i < m) {
    if (t.close[i]) {
      i++;
      continue;
    }
    const p = t.param[i];
    const spec = tool.params[p];
    let c = spec.bulk ? lastClose[p] : i + 1;
    if (!spec.bulk) { while (c < m && !(t.close[c] && t.param[c] === p)) c++; }
    if (c <= i || c >= m) return { ok: false, open: spec.name };
    const value = cutValue(slice, t.end[i], t.start[c]);
    const prev = values[p];
    if (!spec.multiple) values[p] ??= value;
    else if (prev === undefined) values[p] = [value];
    else (prev as string[]).push(value);
    i = c + 1;
  }
  const params: Record<string, string | string[]> = {};
  tool.params.forEach((spec, k) => {
    const v = values[k];
    if (v !== undefined) params[spec.name] = v;
  });
  return { ok: true, params };
}

/**
 * Strips exactly one leading and one trailing newline (`\r\n` counts as one)
 * and unwraps a value that is exactly one CDATA section.
 */
export function cleanValue(raw: string): string {
  return cutValue((a, b) => raw.slice(a, b), 0, raw.length);
}

/**
 * {@link cleanValue} of the text between `a` and `b`, looking only at its
 * edges: a long value streamed in pieces is cut out once and never read
 * here, so it stays a rope that V8 joins on first use.
 */
function cutValue(slice: Slicer, a: number, b: number): string {
  const head = slice(a, Math.min(b, a + 2));
  const tail = slice(Math.max(a, b - 2), b);
  let s = a;
  let e = b;
  if (head.startsWith("\n")) s += 1;
  else if (head === "\r\n") s += 2;
  if (e - s >= 2 && tail === "\r\n") e -= 2;
  else if (e - s >= 1 && tail.endsWith("\n")) e -= 1;
  if (e - s >= 12 && slice(s, s + 9) === "<![CDATA[" && slice(e - 3, e) === "]]>") {
    const v = slice(s, e);
    return v.indexOf("]]>", 9) === v.length - 3 ? v.slice(9, -3) : v;
  }
  return slice(s, e);
}
