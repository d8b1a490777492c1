/**
 * What the streaming scanner already knows about the visible text when it
 * ends: the spans the quiet run (`quiet_run.ts`) kept unread while the
 * reasoning splitter heeded `t` and `r`. In such a span no `<` or `</` is
 * followed by `t` or `r`, so none of `<think>`, `<thinking>`, `<reasoning>`,
 * `<tool_call>` or `</tool_call>` starts there, and the end-of-reply searches
 * for them (`dialect_mask.ts`, `dialect_strong.ts`) read only the rest. A
 * reply parsed whole has no such spans and is read as before; the results
 * are the same either way.
 *
 * @module
 */

/** What must follow a `<` or `</` (by character code) for a search to need a span read. */
export const CLEARED_FIRSTS: readonly number[] = [116, 114];

/**
 * Spans shorter than this are not noted: searching around many short spans
 * costs more than reading them (a reply of tags that start calls and finish
 * none makes such spans on every line).
 */
const SHORTEST = 1024;

/**
 * Spans of a text, sorted, that hold the start of no tag named `t…` or `r…`.
 *
 * @example
 * ```ts
 * const clear = new ClearSpans(1);
 * const text = "<tool_call> a<b c<d ... e </tool_call>";
 * clear.add(11, 25); // the pushes saw no `<t`, `<r`, `</t` or `</r` there
 * clear.indexOf(text, "</tool_call>", 11); // 26, without reading 11..25
 * ```
 */
export class ClearSpans {
  /** Start and end (exclusive) of each span, in order. */
  #starts: number[] = [];
  #ends: number[] = [];
  #shortest: number;

  /** `shortest`: the length below which a span is left out (unless it extends the last). */
  constructor(shortest = SHORTEST) {
    this.#shortest = shortest;
  }

  /** Whether no span is known (a reply parsed whole). */
  get empty(): boolean {
    return this.#starts.length === 0;
  }

  /** Adds `[start, end)`, which begins at or after the last span's end (a short span is left out). */
  add(start: number, end: number): void {
    const last = this.#ends.length - 1;
    if (last >= 0 && this.#ends[last] === start) this.#ends[last] = end;
    else if (end - start >= this.#shortest) {
      this.#starts.push(start);
      this.#ends.push(end);
    }
  }

  /**
   * `text.indexOf(needle, from)` for a `needle` that begins with `<t`, `<r`,
   * `</t` or `</r`: the spans are not read.
   */
  indexOf(text: string, needle: string, from: number): number {
    if (this.empty) return text.indexOf(needle, from);
    for (const [a, b] of this.#gaps(text, from, needle.length)) {
      const i = text.slice(a, b).indexOf(needle);
      if (i >= 0) return a + i;
    }
    return -1;
  }

  /**
   * The first match of `re` at or after `from`, with its index in `text`, for
   * a pattern whose every match begins with `<t`, `<r`, `</t` or `</r` and is
   * at most `longest` characters long: the spans are not read. `re`'s
   * `lastIndex` is used and left as `exec` leaves it.
   */
  exec(re: RegExp, text: string, from: number, longest: number): RegExpExecArray | null {
    if (this.empty) {
      re.lastIndex = from;
      return re.exec(text);
    }
    for (const [a, b] of this.#gaps(text, from, longest)) {
      re.lastIndex = 0;
      const m = re.exec(text.slice(a, b));
      if (m === null) continue;
      m.index += a;
      re.lastIndex += a;
      return m;
    }
    re.lastIndex = 0;
    return null;
  }

  /**
   * The parts of `text` from `from` on outside the spans, each as
   * `[start, end)` reaching `longest - 1` characters into the next span (a
   * match that starts before a span may end inside it).
   */
  *#gaps(text: string, from: number, longest: number): Generator<[number, number]> {
    const starts = this.#starts;
    const ends = this.#ends;
    let a = from;
    for (let k = this.#after(from); k < starts.length; k++) {
      if (starts[k] > a) yield [a, Math.min(text.length, starts[k] + longest - 1)];
      a = Math.max(a, ends[k]);
    }
    if (a < text.length) yield [a, text.length];
  }

  /** Index of the first span that ends after `pos` (the spans' count when none does). */
  #after(pos: number): number {
    const ends = this.#ends;
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] <= pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
