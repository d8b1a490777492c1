/**
 * The closing-tag searches of the end-of-reply pass (`dialects.ts`,
 * `dialect_strong.ts`), remembered: each marker that opens a call looks for
 * its closer from where it stands, and a reply of many openers and no closer
 * (`<tool_call>` on every line, never closed) would read the rest of the text
 * once per opener. A search answers from the last one for the same needle
 * when that one started at or before it and found nothing, or found a match
 * at or after it; so each needle reads the text about once.
 *
 * @module
 */
import { CLEARED_FIRSTS, type ClearSpans } from "./clear_spans.ts";
import { noted, NotedSpans } from "./noted_spans.ts";
import { LT, SLASH } from "./tags.ts";

/**
 * `indexOf` over one text, remembered per needle.
 *
 * @example
 * ```ts
 * const find = new TextFind("<tool_call> a <tool_call> b", new ClearSpans());
 * find.indexOf("</tool_call>", 11); // -1: the text is read
 * find.indexOf("</tool_call>", 25); // -1: answered from the search before
 * find.reads; // 1
 * ```
 */
export class TextFind {
  readonly text: string;
  #clear: ClearSpans;
  #noted: NotedSpans;
  /** Per needle: where its last search started, and what it found. */
  #last = new Map<string, { from: number; at: number }>();
  /** How many searches read the text (the others were answered from memory). */
  reads = 0;

  /**
   * `clear`: spans where no tag named `t…` or `r…` starts (see `clear_spans.ts`);
   * `notes`: spans where every `<a…` and `<p…` tag's place is known (`noted_spans.ts`).
   */
  constructor(text: string, clear: ClearSpans, notes = new NotedSpans()) {
    this.text = text;
    this.#clear = clear;
    this.#noted = notes;
  }

  /**
   * Searches in `[start, end)` of the text, positions relative to `start`
   * (what `text.slice(start, end).indexOf` answers); a tag the stream noted
   * is looked for only where it stands.
   */
  part(start: number, end: number): Search {
    const text = this.text;
    const notes = this.#noted;
    const body = text.slice(start, end);
    return (needle, from) => {
      if (!noted(needle)) return body.indexOf(needle, from);
      const i = notes.indexOf(text, needle, start + from, end);
      return i < 0 ? -1 : i - start;
    };
  }

  /** `text.indexOf(needle, from)`. */
  indexOf(needle: string, from: number): number {
    const last = this.#last.get(needle);
    if (last !== undefined && from >= last.from && (last.at < 0 || last.at >= from)) {
      return last.at;
    }
    this.reads++;
    const at = cleared(needle)
      ? this.#clear.indexOf(this.text, needle, from)
      : this.text.indexOf(needle, from);
    this.#last.set(needle, { from, at });
    return at;
  }
}

/** `text.indexOf(needle, from)` for some text, or a search that answers the same. */
export type Search = (needle: string, from: number) => number;

/** Whether `needle` begins with `<t`, `<r`, `</t` or `</r` (the clear spans hold none). */
function cleared(needle: string): boolean {
  if (needle.charCodeAt(0) !== LT) return false;
  const k = needle.charCodeAt(1) === SLASH ? 2 : 1;
  return CLEARED_FIRSTS.includes(needle.charCodeAt(k));
}
