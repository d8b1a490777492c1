/**
 * The parts of a reply where no call may be taken: inline code spans (a
 * backtick run closed by a run of the same length on the same line) and
 * reasoning tags that open in the middle of a line (`<think>`, `<thinking>`,
 * `<reasoning>`, to their closing tag or the end). Linear in the text.
 *
 * @module
 */
import type { ClearSpans } from "./clear_spans.ts";

/** A range of the reply, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The masked spans, sorted and not overlapping. `clear`: spans where no
 * reasoning tag starts, not searched for one.
 */
export function maskedSpans(text: string, clear: ClearSpans): Span[] {
  const code = codeSpans(text);
  const spans = [...code, ...thinkSpans(text, code, clear)];
  spans.sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}

/** Walks masked spans in increasing positions. */
export class MaskCursor {
  #spans: readonly Span[];
  #k = 0;

  constructor(spans: readonly Span[]) {
    this.#spans = spans;
  }

  /** The span holding `pos`, or null; `pos` must not decrease between calls. */
  at(pos: number): Span | null {
    const s = this.#spans;
    while (this.#k < s.length && s[this.#k].end <= pos) this.#k++;
    const span = s[this.#k];
    return span !== undefined && span.start <= pos ? span : null;
  }
}

function codeSpans(text: string): Span[] {
  const spans: Span[] = [];
  let lineEnd = -1;
  let runs: Span[] = [];
  for (let q = text.indexOf("`"); q >= 0; q = text.indexOf("`", q)) {
    if (q > lineEnd) {
      pairRuns(runs, spans);
      runs = [];
      lineEnd = text.indexOf("\n", q);
      if (lineEnd < 0) lineEnd = text.length;
    }
    let e = q;
    while (text.charCodeAt(e) === 96) e++;
    runs.push({ start: q, end: e });
    q = e;
  }
  pairRuns(runs, spans);
  return spans;
}

/** Pairs the runs of one line: a run closes at the next run of the same length. */
function pairRuns(runs: readonly Span[], out: Span[]): void {
  const next = new Int32Array(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    const len = runs[k].end - runs[k].start;
    next[k] = seen.get(len) ?? -1;
    seen.set(len, k);
  }
  for (let k = 0; k < runs.length; k++) {
    if (next[k] < 0) continue;
    out.push({ start: runs[k].start, end: runs[next[k]].end });
    k = next[k];
  }
}

/** The longest reasoning tag, `<reasoning>`. */
const LONGEST_OPENER = 11;

function thinkSpans(text: string, code: readonly Span[], clear: ClearSpans): Span[] {
  const spans: Span[] = [];
  const cursor = new MaskCursor(code);
  const re = /<(think|thinking|reasoning)>/g;
  let from = 0;
  for (let m = clear.exec(re, text, 0, LONGEST_OPENER); m !== null;) {
    from = re.lastIndex;
    if (cursor.at(m.index) === null) {
      const close = clear.indexOf(text, `</${m[1]}>`, from);
      from = close < 0 ? text.length : close + m[1].length + 3;
      spans.push({ start: m.index, end: from });
    }
    m = clear.exec(re, text, from, LONGEST_OPENER);
  }
  return spans;
}
