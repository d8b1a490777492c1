/**
 * Splits a streaming reply into visible text and reasoning: a `<think>`,
 * `<thinking>` or `<reasoning>` block that opens at the start of a line runs
 * to its closing tag (or to the end of the reply). When a chat template has
 * already opened `<think>` for the model, the reply starts inside reasoning
 * and only a `</think>` shows it: the first closing tag met before any opener
 * turns everything before it into reasoning (`reset`).
 *
 * Reasoning comes before the call: from the first `<tool_call>` or
 * `<function` in the visible text on, no opening tag starts reasoning any
 * more (a file written by the call may hold one at the start of a line);
 * only an orphan closer still counts, so a call that a template-opened
 * reasoning mentions is never taken.
 *
 * Each character is looked at once; a tag cut across chunks is held back
 * (at most one tag's length), so every chunking gives the same split.
 *
 * @module
 */

const OPEN = ["<think>", "<thinking>", "<reasoning>"];
const CLOSE = ["</think>", "</thinking>", "</reasoning>"];
/** Visible tags after which nothing more is split off. */
const CALLS = ["<tool_call>", "<function"];
const OPEN_CLOSE = [...OPEN, ...CLOSE, ...CALLS];
const OPEN_CALLS = [...OPEN, ...CALLS];
const CLOSE_CALLS = [...CLOSE, ...CALLS];
const CLOSE_ONLY = CLOSE.map((c) => [c]);
const NONE: string[] = [];
const OPEN_CLOSE_ONLY = [...OPEN, ...CLOSE];
const NL = 10;

/** The first letters of the tags' names: `t`, `r`, `f`. */
const TAG_FIRSTS: readonly number[] = [116, 114, 102];
const NO_CODES: readonly number[] = [];

/** Whether the character after `<` may start one of the tags (`/`, `t`, `r`, `f`). */
function maybeTag(c: number): boolean {
  return c === 47 || c === 116 || c === 114 || c === 102;
}

/** Index of the last character in `text[stop..i]` that is not a space, tab or CR; below `stop` when none. */
function lastNonSpace(text: string, i: number, stop: number): number {
  while (i >= stop) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return i;
    i--;
  }
  return i;
}

/** What one chunk adds. */
export interface SplitUpdate {
  /** New visible text. */
  visible: string;
  /** New reasoning text. */
  reasoning: string;
  /**
   * A closing tag came before any opener: every visible text returned by
   * earlier pushes, and `before`, was reasoning too.
   */
  reset?: boolean;
  /** With `reset`: the text of this chunk before the closing tag. */
  before?: string;
}

/**
 * The streaming splitter.
 *
 * @example
 * ```ts
 * const s = new ReasoningSplitter();
 * s.push("<think>plan</th"); // { visible: "", reasoning: "plan" }
 * s.push("ink>\nDone.");     // { visible: "\nDone.", reasoning: "" }
 * ```
 */
export class ReasoningSplitter {
  /** After {@link feed}: the reasoning it added. */
  reasoning = "";
  /** After {@link feed}: an orphan closer made the earlier visible text reasoning. */
  reset = false;
  /** After {@link feed} with `reset`: the visible text of the chunk before the closer. */
  before = "";
  /** Where the orphan closer starts in the whole reply, or -1. */
  closerAt = -1;
  /**
   * After {@link feed}: the held text the last chunk was read after (a tag
   * cut by the previous chunk). Before a `reset`, every chunk fed is the
   * visible text returned so far plus this plus the last chunk.
   */
  carried = "";
  #inside = -1; // index of the open tag's kind, or -1
  #opened = false; // an opener or an orphan closer was seen
  #lineStart = true; // only spaces so far on the visible line
  #pending = "";
  #visible = "";
  #stopped = false; // a call began: the rest is visible text
  #fed = 0; // characters fed so far

  /** `orphans: false` never takes a closer without an opener as the end of reasoning. */
  constructor(options: { orphans?: boolean } = {}) {
    if (options.orphans === false) this.#opened = true;
  }

  /** Feeds the next chunk. */
  push(chunk: string): SplitUpdate {
    return this.#update(this.feed(chunk));
  }

  /** End of the reply: a held partial tag is plain text. */
  end(): SplitUpdate {
    this.#start();
    this.#emit(this.#pending);
    this.#pending = "";
    return this.#update(this.#visible);
  }

  /**
   * Feeds the next chunk and returns its visible text; the reasoning it added
   * is in {@link reasoning}, an orphan closer in {@link reset}. Allocates
   * nothing for a chunk that is plain visible text. `only`, when not -1, is
   * where the chunk's only `<` stands (the caller has looked already).
   */
  feed(chunk: string, only = -1): string {
    let text = chunk;
    this.#start();
    const base = this.#fed - this.#pending.length;
    this.#fed += chunk.length;
    if (this.#stopped && this.#opened && this.#pending === "") return chunk;
    this.carried = this.#pending;
    if (this.#pending !== "") {
      text = this.#pending + chunk;
      this.#pending = "";
      only = -1;
    }
    const n = text.length;
    let from = 0;
    // Each layer's search costs a call into the engine, more than reading 16 characters.
    const first = only >= 0 ? only : text.indexOf("<");
    for (let j = first; j >= 0; j = only >= 0 ? -1 : text.indexOf("<", j + 1)) {
      if (j + 1 < n && !maybeTag(text.charCodeAt(j + 1))) continue;
      if (j + 2 < n && text.charCodeAt(j + 1) === 47 && !maybeTag(text.charCodeAt(j + 2))) continue;
      const tag = this.#tagAt(text, j, this.#lineStartAt(text, from, j));
      if (tag === "") continue;
      if (tag !== null && (CALLS.includes(tag) || (this.#stopped && OPEN.includes(tag)))) {
        // A call began; after it an opener only ends the search for an orphan closer.
        if (this.#stopped) this.#opened = true;
        this.#stopped = true;
        j += tag.length - 1;
        continue;
      }
      this.#emit(text.slice(from, j));
      if (tag === null) {
        this.#pending = text.slice(j);
        return this.#visible;
      }
      if (!OPEN.includes(tag) && this.#inside < 0) this.closerAt = base + j;
      this.#onTag(tag);
      from = j + tag.length;
      j = from - 1;
    }
    this.#emit(from === 0 ? text : text.slice(from));
    return this.#visible;
  }

  /**
   * {@link feed} for a chunk that holds no `<`, the common case of a stream
   * cut into small chunks: no tag can start in it, so it is only counted and
   * passed on (as visible text or as reasoning).
   */
  feedPlain(chunk: string): string {
    if (this.#pending !== "") return this.feed(chunk);
    this.#fed += chunk.length;
    if (this.#inside >= 0) {
      this.#start();
      this.reasoning = chunk;
      return "";
    }
    if (this.reasoning !== "" || this.reset) this.#start();
    this.carried = "";
    if (this.#stopped && this.#opened) return chunk;
    const k = lastNonSpace(chunk, chunk.length - 1, 0);
    if (k >= 0) this.#lineStart = chunk.charCodeAt(k) === NL;
    return chunk;
  }

  /**
   * Whether a chunk without `<` can only be visible text (no tag is held,
   * no reasoning block is open): then {@link count} may stand for
   * {@link feedPlain}.
   */
  get plain(): boolean {
    return this.#pending === "" && this.#inside < 0;
  }

  /**
   * What may follow a `<` or `</` to begin a tag of interest now: the first
   * letters of the tags' names, by character code (the same list while it
   * does not change). While {@link plain} holds, a chunk whose every `<` is
   * followed by another character is visible text.
   */
  get heeds(): readonly number[] {
    return this.#stopped && this.#opened ? NO_CODES : TAG_FIRSTS;
  }

  /**
   * {@link feed} while {@link plain} holds, for text the caller passes on as
   * visible text unread (it has no `<`, or none that {@link heed} marks):
   * only counts it and notes whether its line is still blank. `end` is a
   * flat piece that ends `text` (a long rope is read only when `end` is
   * blank).
   */
  count(text: string, end = text): void {
    this.#fed += text.length;
    if (this.#stopped && this.#opened) return;
    let k = lastNonSpace(end, end.length - 1, 0);
    if (k < 0 && end !== text) {
      end = text;
      k = lastNonSpace(text, text.length - 1, 0);
    }
    if (k >= 0) this.#lineStart = end.charCodeAt(k) === NL;
  }

  #start(): void {
    this.reasoning = "";
    this.reset = false;
    this.before = "";
    this.#visible = "";
  }

  #update(visible: string): SplitUpdate {
    const out: SplitUpdate = { visible, reasoning: this.reasoning };
    if (this.reset) {
      out.reset = true;
      out.before = this.before;
    }
    return out;
  }

  #emit(text: string): void {
    if (text === "") return;
    if (this.#inside >= 0) {
      this.reasoning += text;
      return;
    }
    this.#visible = this.#visible === "" ? text : this.#visible + text;
    const k = lastNonSpace(text, text.length - 1, 0);
    if (k >= 0) this.#lineStart = text.charCodeAt(k) === NL;
  }

  /** Whether only spaces stand between the line's start and `j` (`text[from..]` not yet emitted). */
  #lineStartAt(text: string, from: number, j: number): boolean {
    const k = lastNonSpace(text, j - 1, from);
    return k < from ? this.#lineStart : text.charCodeAt(k) === NL;
  }

  /** The tag of interest at `j`: the tag, `""` when none, null when the text may still become one. */
  #tagAt(text: string, j: number, lineStart: boolean): string | null {
    const rest = text.length - j;
    const names = this.#inside >= 0
      ? CLOSE_ONLY[this.#inside]
      : this.#stopped
      ? (this.#opened ? NONE : lineStart ? OPEN_CLOSE_ONLY : CLOSE)
      : lineStart
      ? (this.#opened ? OPEN_CALLS : OPEN_CLOSE)
      : (this.#opened ? CALLS : CLOSE_CALLS);
    // The characters after `<` rule most names out before any search (which calls into the engine).
    const c1 = rest > 1 ? text.charCodeAt(j + 1) : -1;
    const c2 = rest > 2 ? text.charCodeAt(j + 2) : -1;
    let partial = false;
    let tail: string | undefined;
    for (const tag of names) {
      if ((c1 >= 0 && tag.charCodeAt(1) !== c1) || (c2 >= 0 && tag.charCodeAt(2) !== c2)) continue;
      if (rest >= tag.length) {
        if (text.startsWith(tag, j)) return tag;
      } else if (tag.startsWith(tail ??= text.slice(j))) partial = true;
    }
    return partial ? null : "";
  }

  #onTag(tag: string): void {
    this.#lineStart = true; // a reasoning block counts as blank
    const open = OPEN.indexOf(tag);
    if (open >= 0) {
      this.#inside = open;
      this.#opened = true;
      return;
    }
    if (this.#inside >= 0) {
      this.#inside = -1;
      return;
    }
    // An orphan closer: the reply began inside reasoning.
    this.#opened = true;
    this.before = this.#visible;
    this.#visible = "";
    this.reset = true;
  }
}
