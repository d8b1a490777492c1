/**
 * What the streaming scanner saw of the dialects' parameter tags in the text
 * its quiet run (`quiet_run.ts`) kept unread: it looks at the letter after
 * every `<` and `</` there anyway, and notes where one is followed by `a` or
 * `p` (`<parameter=`, `<parameter name=`, `<arg_key>`, `<arg_value>` and
 * their closers begin so). At the end of the reply, the search for such a
 * tag checks only the noted places inside those spans instead of reading
 * them: a 1 MB value is not read again to split a call into its parameters.
 * A reply parsed whole has no spans and is searched as before; the results
 * are the same either way.
 *
 * @module
 */
import { LT, SLASH } from "./tags.ts";

/** The letters, by character code, whose tags are noted: `a` and `p`. */
export const NOTED_FIRSTS: readonly number[] = [97, 112];

/** Spans shorter than this are not kept (their text is searched as usual). */
const SHORTEST = 1024;

/**
 * Spans of a text, in order, each with every place where a `<` or `</`
 * followed by a noted letter starts.
 *
 * @example
 * ```ts
 * const text = "<tool_call>" + "x".repeat(2000) + "<parameter=a>";
 * const noted = new NotedSpans(1);
 * noted.add(11, text.length, [2011]); // the stream saw one `<p` there
 * noted.indexOf(text, "<parameter=", 0, text.length); // 2011, checked at 2011 only
 * ```
 */
export class NotedSpans {
  #starts: number[] = [];
  #ends: number[] = [];
  /** The noted places of every span, ascending. */
  #marks: number[] = [];
  #shortest: number;

  constructor(shortest = SHORTEST) {
    this.#shortest = shortest;
  }

  /**
   * Adds `[start, end)`, which begins at or after the last span's end, and
   * its noted places (ascending; places outside it are left out).
   */
  add(start: number, end: number, marks: readonly number[]): void {
    const last = this.#ends.length - 1;
    if (last >= 0 && this.#ends[last] === start) this.#ends[last] = end;
    else if (end - start >= this.#shortest) {
      this.#starts.push(start);
      this.#ends.push(end);
    } else return;
    for (const m of marks) if (m >= start && m < end) this.#marks.push(m);
  }

  /**
   * The first match of `needle` (which begins with `<a`, `<p`, `</a` or
   * `</p`) in `text` starting at or after `from` and ending by `to`; -1 when
   * none. Inside the spans only the noted places are checked.
   */
  indexOf(text: string, needle: string, from: number, to: number): number {
    const starts = this.#starts;
    const ends = this.#ends;
    const last = to - needle.length; // the last place a match may start
    let a = from;
    for (let k = this.#after(from); k < starts.length && a <= last; k++) {
      if (starts[k] > a) {
        // The text before the span, and as far into it as a match begun before it reaches.
        const i = text.slice(a, Math.min(to, starts[k] + needle.length - 1)).indexOf(needle);
        if (i >= 0) return a + i;
      }
      const at = this.#inSpan(text, needle, Math.max(a, starts[k]), Math.min(ends[k], last + 1));
      if (at >= 0) return at;
      a = Math.max(a, ends[k]);
    }
    if (a > last) return -1;
    const i = text.slice(a, to).indexOf(needle);
    return i < 0 ? -1 : a + i;
  }

  /** The first noted place in `[a, b)` where `needle` stands, or -1. */
  #inSpan(text: string, needle: string, a: number, b: number): number {
    const marks = this.#marks;
    for (let k = lowerBound(marks, a); k < marks.length && marks[k] < b; k++) {
      if (text.startsWith(needle, marks[k])) return marks[k];
    }
    return -1;
  }

  /** Index of the first span that ends after `pos` (the spans' count when none does). */
  #after(pos: number): number {
    return lowerBound(this.#ends, pos + 1);
  }
}

/** Whether `needle` begins with `<a`, `<p`, `</a` or `</p` (what the spans note). */
export function noted(needle: string): boolean {
  if (needle.charCodeAt(0) !== LT) return false;
  const k = needle.charCodeAt(1) === SLASH ? 2 : 1;
  return NOTED_FIRSTS.includes(needle.charCodeAt(k));
}

/** The first index of ascending `list` whose value is at least `x`. */
function lowerBound(list: readonly number[], x: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
