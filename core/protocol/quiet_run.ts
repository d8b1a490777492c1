/**
 * The hot path of the layered scanner (`xml.ts`) while a call streams, or
 * while a call in another dialect is held off the screen (then a backtick
 * matters too, for the prose scanner's code spans: {@link QuietRun.ticks}):
 * once no layer can be changed by a chunk that holds no tag of interest, such
 * chunks are only kept here, one string built by `+=` (a rope V8 joins
 * once), and handed to the layers in one piece when a chunk that may matter
 * comes or the reply ends. What a layer would read is decided per chunk, so
 * the updates a consumer sees come exactly when they would without it.
 *
 * A chunk "may matter" when one of its `<` (or `</`) is followed by a
 * character the layers heed (the first letters of the tag names they read,
 * by character code in {@link QuietRun.heed}). A `<` or `</` that ends a
 * chunk is undecided: it is held (`cut`) and read with the next chunk. Text
 * handed on while `t` and `r` were heeded is noted in {@link QuietRun.clear},
 * so the end of the reply need not search it again; where a `<` or `</` in it
 * is followed by `a` or `p` is noted in {@link QuietRun.noted}, so the end's
 * search for such a tag looks only there.
 *
 * @module
 */
import { CLEARED_FIRSTS, ClearSpans } from "./clear_spans.ts";
import { NOTED_FIRSTS, NotedSpans } from "./noted_spans.ts";
import { SLASH } from "./tags.ts";
import type { TextStore } from "./text_store.ts";

const NONE: readonly number[] = [];
/** {@link QuietRun.heed}'s values: a layer reads the tag; the tag's place is noted (`noted_spans.ts`). */
const HEEDED = 1;
const NOTED = 2;

/** Chunks this short are handed on at once (the store copies them as character codes, cheaper). */
const TINY = 4;

/** The layer that counts the visible text handed on unread (the reasoning splitter). */
export interface Counter {
  /** Counts `text`, visible and unread; `end` is a flat piece that ends it. */
  count(text: string, end?: string): void;
}

/**
 * Text taken while no layer would read it.
 *
 * @example
 * ```ts
 * const q = new QuietRun(new TextStore(), new ReasoningSplitter());
 * q.on = true; // the layers are quiet; nothing is heeded
 * q.take("plain text <"); // null: taken, "<" held as the cut
 * q.take("b>"); // null: "<b" begins no tag that is heeded
 * q.text; // "plain text <b>"
 * ```
 */
export class QuietRun {
  /** The visible text, where taken text goes when handed on (see {@link restart}). */
  store: TextStore;
  /** Where in {@link store} text was handed on that holds no tag named `t…` or `r…`. */
  clear = new ClearSpans();
  /** Where in {@link store} text was handed on, with every `<a…` and `<p…` tag's place in it. */
  noted = new NotedSpans();
  /** Those places in the text taken since the last hand-on (positions in {@link store}). */
  #marks: number[] = [];
  #counter: Counter;
  /** Whether chunks may be taken (set by the owner after each chunk it read). */
  on = false;
  /** Text taken since the owner last handed it on. */
  text = "";
  /** The last non-empty piece added to {@link text}. */
  last = "";
  /** A `<` or `</` that ended the text taken, not yet in {@link text}. */
  cut = "";
  /**
   * What may follow `<` or `</` (by character code): 1 begins a tag some layer
   * reads, 2 a tag whose place is noted, 0 neither.
   */
  readonly heed = new Uint8Array(128);
  /** Whether a backtick makes a chunk matter too (prose is read, for code spans). */
  ticks = false;
  /** After a refused {@link take}: where the first `<` of the returned text stands, or -1. */
  lt = -1;
  #a: readonly number[] = [];
  #b: readonly number[] = [];
  #c: readonly number[] = [];

  constructor(store: TextStore, counter: Counter) {
    this.store = store;
    this.#counter = counter;
    for (const k of NOTED_FIRSTS) this.heed[k] = NOTED;
  }

  /**
   * Takes `chunk` when no layer would read it and returns null; else returns
   * the text the layers must read now (the held cut, then the chunk), with
   * {@link lt} set, and holds nothing more.
   */
  take(chunk: string): string | null {
    if (this.ticks && chunk.indexOf("`") >= 0) return this.#refuse(chunk);
    if (chunk.length <= TINY && this.cut === "") {
      const lt = chunk.indexOf("<");
      this.lt = lt;
      if (lt >= 0) return chunk;
      this.handOn();
      this.store.append(chunk);
      this.#counter.count(chunk);
      return null;
    }
    const text = this.cut === "" ? chunk : this.cut + chunk;
    const lt = text.indexOf("<");
    const end = lt < 0 ? text.length : this.#quietUpTo(text, lt);
    if (end < 0) {
      this.cut = "";
      this.lt = lt;
      return text;
    }
    if (end === text.length) {
      if (text !== "") this.#add(text);
      this.cut = "";
      return null;
    }
    if (end > 0) this.#add(text.slice(0, end));
    this.cut = text.slice(end);
    return null;
  }

  /** Returns `chunk` and the held cut for the layers to read. */
  #refuse(chunk: string): string {
    const text = this.cut === "" ? chunk : this.cut + chunk;
    this.cut = "";
    this.lt = text.indexOf("<");
    return text;
  }

  /**
   * Heeds exactly the first letters in `a`, `b` and `c` (character codes, each
   * list from one layer; the mask is rebuilt only when a list changed).
   */
  heedOnly(a: readonly number[], b: readonly number[], c: readonly number[] = NONE): void {
    if (a === this.#a && b === this.#b && c === this.#c) return;
    this.#a = a;
    this.#b = b;
    this.#c = c;
    const heed = this.heed;
    heed.fill(0);
    for (const k of a) heed[k] = HEEDED;
    for (const k of b) heed[k] = HEEDED;
    for (const k of c) heed[k] = HEEDED;
    for (const k of NOTED_FIRSTS) if (heed[k] === 0) heed[k] = NOTED;
  }

  /** Hands the text taken so far on: appended to the store, counted. */
  handOn(): void {
    const text = this.text;
    if (text === "") return;
    this.text = "";
    const start = this.store.length;
    this.store.append(text);
    this.#counter.count(text, this.last);
    if (this.#heeds(CLEARED_FIRSTS)) this.clear.add(start, this.store.length);
    this.noted.add(start, this.store.length, this.#marks);
    this.#marks.length = 0;
  }

  /** The owner's visible text starts again in `store` (nothing is taken or held then). */
  restart(store: TextStore): void {
    this.store = store;
    this.clear = new ClearSpans();
    this.noted = new NotedSpans();
    this.#marks.length = 0;
  }

  #heeds(codes: readonly number[]): boolean {
    for (const c of codes) if (this.heed[c] !== HEEDED) return false;
    return true;
  }

  #add(piece: string): void {
    this.text += piece;
    this.last = piece;
  }

  /**
   * Where the undecided `<` at the end of `text` starts; `text.length` when
   * every `<` is followed by a character nobody heeds; -1 when one is heeded.
   */
  #quietUpTo(text: string, lt: number): number {
    const heed = this.heed;
    const n = text.length;
    for (let j = lt; j >= 0; j = text.indexOf("<", j + 1)) {
      let k = j + 1;
      if (k < n && text.charCodeAt(k) === SLASH) k++;
      if (k >= n) return j;
      const c = text.charCodeAt(k);
      if (c < 128 && heed[c] !== 0) {
        if (heed[c] === HEEDED) return -1; // (places noted in it lie outside the span: left out)
        this.#marks.push(this.store.length + this.text.length + j);
      }
    }
    return n;
  }
}
