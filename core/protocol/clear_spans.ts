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
 * Spans of a text, sorted, that hold the start of no tag named `t…` or `r…`.
 *
 * @example
 * ```ts
 * const clear = new ClearSpans();
 * const text = "<tool_call> a<b c<d ... e </tool_call>";
 * clear.add(11, 25); // the pushes saw no `<t`, `<r`, `</t` or `</r` there
 * clear.indexOf(text, "</tool_call>", 11); // 26, without reading 11..25
 * ```
 */
export class ClearSpans {
  /** Start and end (exclusive) of each span, in order. */
  #starts: number[] = [];
  #ends: number[] = [];

  /** Whether no span is known (a reply parsed whole). */
  get empty(): boolean {
    return this.#starts.length === 0;
  }

  /** Adds `[start, end)`, which begins at or after the last span's end. */
  add(start: number, end: number): void {
    if (end <= start) return;
    const last = this.#ends.length - 1;
    if (last >= 0 && this.#ends[last] === start) this.#ends[last] = end;
    else {
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
    for (let k = 0; k < starts.length; k++) {
      if (ends[k] <= a) continue;
      if (starts[k] > a) yield [a, Math.min(text.length, starts[k] + longest - 1)];
      a = Math.max(a, ends[k]);
    }
    if (a < text.length) yield [a, text.length];
  }
}
