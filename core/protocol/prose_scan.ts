/**
 * Finds the opener of a tool call in prose (rule 1): the first `<tool_call>`
 * that is neither inside an inline code span (a backtick run closed by a run
 * of the same length on the same line) nor inside `<thinking>…</thinking>`
 * (or `<think>`, `<reasoning>`).
 * An unclosed `<thinking>` runs to the end of the reply. Fenced blocks do not
 * hide a call: a fence line has no closing run on its line.
 *
 * Work is linear: each character is looked at once. Whether a backtick run
 * opens a span is only known at its closer or at the end of its line, so the
 * tags and runs that follow it are recorded as events and replayed once the
 * line is complete.
 *
 * @module
 */
import { BACKTICK, LT, NL, Tag, TagReader } from "./tags.ts";

/** Where a `<tool_call>` opener lies (absolute positions, end exclusive). */
export interface Opener {
  start: number;
  end: number;
}

/** The only tags prose cares about. */
const TAGS = ["tool_call", "thinking", "think", "reasoning"];

/** The first letters of {@link TAGS}, by character code (`t`, `r`). */
export const PROSE_FIRSTS: readonly number[] = [...new Set(TAGS.map((t) => t.charCodeAt(0)))];

/** Whether a tag name opens or closes reasoning. */
function isThink(name: string): boolean {
  return name === "thinking" || name === "think" || name === "reasoning";
}

const RUN = 0;
const OPEN_CALL = 1;
const OPEN_THINK = 2;
const CLOSE_THINK = 3;

interface Ev {
  kind: number;
  start: number;
  end: number;
  /** Length of a backtick run. */
  len: number;
}

interface PendingLine {
  /** Length of the unmatched run that made the rest of the line undecided. */
  len: number;
  events: Ev[];
  /** Start of the first `<tool_call>` seen since, or -1. */
  firstCall: number;
}

/**
 * Scans prose for the call opener, chunk by chunk.
 *
 * @example
 * ```ts
 * const s = new ProseScanner(0);
 * s.scan("Use `<tool_call>` like this: <tool_call>", 0, 0);
 * s.opener; // { start: 29, end: 40 }
 * ```
 */
export class ProseScanner {
  /** The opener, once known. */
  opener: Opener | null = null;
  #thinking = false;
  #pending: PendingLine | null = null;
  #runStart = -1;
  #runLen = 0;
  #tag = new TagReader(9);
  #pos: number;

  /** `start` is the absolute position where scanning begins. */
  constructor(start: number) {
    this.#pos = start;
    this.#tag.expect(TAGS);
  }

  /**
   * Scans `chunk` from index `i` (`chunk[0]` is at absolute position `base`)
   * and stops as soon as the opener is known. Returns the index where it
   * stopped; the opener may lie before it when a line had to be replayed.
   */
  scan(chunk: string, i: number, base: number): number {
    const n = chunk.length;
    const tag = this.#tag;
    while (i < n && this.opener === null) {
      if (tag.state !== 0) {
        i = tag.read(chunk, i);
        if (tag.result === Tag.Done) this.#onTag(base + i);
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (this.#runStart >= 0) {
        if (c === BACKTICK) {
          this.#runLen++;
          i++;
          continue;
        }
        this.#endRun();
      }
      if (this.#thinking) {
        const j = chunk.indexOf("<", i);
        if (j < 0) {
          i = n;
          break;
        }
        tag.begin(base + j);
        i = j + 1;
        continue;
      }
      if (c === LT) tag.begin(base + i);
      else if (c === BACKTICK) {
        this.#runStart = base + i;
        this.#runLen = 1;
      } else if (c === NL && this.#pending !== null) this.#resolveLine();
      i++;
    }
    this.#pos = base + i;
    return i;
  }

  /** The end of the text: a partial tag is text, an open line is complete. */
  end(): void {
    if (this.opener !== null) return;
    this.#tag.reset();
    if (this.#runStart >= 0) this.#endRun();
    if (this.#pending !== null) this.#resolveLine();
  }

  /**
   * Whether text whose every `<` begins no tag of {@link TAGS} and that holds
   * no backtick would change nothing but the position (no opener, no tag,
   * run or undecided line open).
   */
  get idle(): boolean {
    return this.opener === null && this.#tag.state === 0 && this.#runStart < 0 &&
      this.#pending === null;
  }

  /** Absolute position up to which the scanned text is certainly not part of a call. */
  safe(): number {
    if (this.opener !== null) return this.opener.start;
    let s = this.#pos;
    if (this.#tag.state !== 0) s = this.#tag.start;
    const p = this.#pending;
    if (p !== null && p.firstCall >= 0 && p.firstCall < s) s = p.firstCall;
    return s;
  }

  #onTag(end: number): void {
    const { close, name, start } = this.#tag;
    const p = this.#pending;
    if (p !== null) {
      if (!close && name === "tool_call") {
        p.events.push({ kind: OPEN_CALL, start, end, len: 0 });
        if (p.firstCall < 0) p.firstCall = start;
      } else if (isThink(name)) {
        p.events.push({ kind: close ? CLOSE_THINK : OPEN_THINK, start, end, len: 0 });
      }
    } else if (this.#thinking) {
      if (close && isThink(name)) this.#thinking = false;
    } else if (!close && name === "tool_call") this.opener = { start, end };
    else if (!close && isThink(name)) this.#thinking = true;
  }

  #endRun(): void {
    const start = this.#runStart;
    const len = this.#runLen;
    this.#runStart = -1;
    const p = this.#pending;
    if (p === null) this.#pending = { len, events: [], firstCall: -1 };
    else if (len === p.len) this.#pending = null;
    else p.events.push({ kind: RUN, start, end: start + len, len });
  }

  /** The line ended without a closer for the pending run: replay what followed it. */
  #resolveLine(): void {
    const events = (this.#pending as PendingLine).events;
    this.#pending = null;
    const next = nextSameRun(events);
    let thinking = false;
    for (let k = 0; k < events.length; k++) {
      const e = events[k];
      if (thinking) {
        if (e.kind === CLOSE_THINK) thinking = false;
      } else if (e.kind === RUN) {
        if (next[k] >= 0) k = next[k];
      } else if (e.kind === OPEN_CALL) {
        this.opener = { start: e.start, end: e.end };
        return;
      } else if (e.kind === OPEN_THINK) thinking = true;
    }
    this.#thinking = thinking;
  }
}

/** For each run event, the index of the next run of the same length, or -1. */
function nextSameRun(events: readonly Ev[]): Int32Array {
  const next = new Int32Array(events.length).fill(-1);
  const seen = new Map<number, number>();
  for (let k = events.length - 1; k >= 0; k--) {
    const e = events[k];
    if (e.kind !== RUN) continue;
    next[k] = seen.get(e.len) ?? -1;
    seen.set(e.len, k);
  }
  return next;
}
