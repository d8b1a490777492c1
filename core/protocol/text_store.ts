/**
 * The text of a streamed reply. Appending never copies what came before and
 * allocates little per chunk: tiny chunks (a character or a few, as token
 * streams send) are copied as character codes into an array that becomes one
 * string when full (`fromCharCode` is exact, lone surrogates included); other
 * small chunks are concatenated into a tail string (a rope V8 builds
 * cheaply), sealed into a block once it is long enough; large chunks are
 * blocks of their own. A long slice across blocks is a rope too, joined by
 * V8 only when first read.
 *
 * @module
 */

/**
 * Append-only text with slicing by absolute position.
 *
 * @example
 * ```ts
 * const t = new TextStore();
 * t.append("<tool_");
 * t.append("call>");
 * t.slice(1, 10); // "tool_call"
 * ```
 */
export class TextStore {
  /** Total length so far. */
  length = 0;
  /** Sealed blocks and their absolute starts. */
  #blocks: string[] = [];
  #starts: number[] = [];
  /** Text after the blocks: the tail, then `#count` buffered character codes. */
  #tail = "";
  #tailStart = 0;
  #pieces = 0;
  /** Made on the first tiny chunk (a reply in large chunks never needs it). */
  #codes: number[] = NO_CODES;
  #count = 0;
  /** The chunk appended last, for slices that fall inside it. */
  #last = "";
  #lastStart = 0;
  /** Receives a character of each flattened rope (see {@link #seal}). */
  #probe = 0;

  /** Adds the next chunk. */
  append(chunk: string): void {
    const start = this.length;
    const n = chunk.length;
    this.#last = chunk;
    this.#lastStart = start;
    if (n <= TINY) {
      if (this.#count + n > CODES) this.#flushCodes();
      if (this.#codes === NO_CODES) this.#codes = zeros(CODES);
      const codes = this.#codes;
      let count = this.#count;
      for (let k = 0; k < n; k++) codes[count++] = chunk.charCodeAt(k);
      this.#count = count;
      this.length = start + n;
      return;
    }
    if (this.#count > 0) this.#flushCodes();
    if (n >= BLOCK) {
      this.#seal();
      this.#blocks.push(chunk);
      this.#starts.push(start);
      this.length = start + n;
      this.#tailStart = this.length;
      return;
    }
    this.length = start + n;
    this.#tail += chunk;
    this.#pieces++;
    if (this.#tail.length >= BLOCK) this.#seal();
  }

  /** The text between absolute positions `a` and `b` (end exclusive). */
  slice(a: number, b: number): string {
    if (b > this.length) b = this.length;
    if (a >= b) return "";
    if (a >= this.#lastStart) return this.#last.slice(a - this.#lastStart, b - this.#lastStart);
    // Slicing the tail flattens it; sealed, it is flattened once, not again as it grows.
    if (b > this.#tailStart) this.#seal();
    return this.#sealed(a, b);
  }

  /** The whole text; the blocks are merged into one from then on. */
  text(): string {
    this.#seal();
    const blocks = this.#blocks;
    if (blocks.length === 0) return "";
    if (blocks.length === 1) return blocks[0];
    // Concatenated, V8 copies the blocks' pieces once when the text is first read.
    let all = "";
    for (let k = 0; k < blocks.length; k++) all += blocks[k];
    this.#blocks = [all];
    this.#starts = [0];
    return all;
  }

  /** Moves the buffered codes into the tail (sealing it once it is long enough). */
  #flushCodes(): void {
    const count = this.#count;
    const codes = count === CODES ? this.#codes : this.#codes.slice(0, count);
    this.#tail += String.fromCharCode.apply(null, codes);
    this.#count = 0;
    this.#pieces++;
    if (this.#tail.length >= BLOCK) this.#seal();
  }

  /** Moves the tail and the buffered codes into the blocks. */
  #seal(): void {
    if (this.#count > 0) this.#flushCodes();
    const tail = this.#tail;
    if (tail.length > 0) {
      // A rope of many small pieces is flattened now, while they are young
      // garbage: reading a character does it (kept, so it is not optimized away).
      if (this.#pieces > FLATTEN_PIECES) this.#probe = tail.charCodeAt(0);
      this.#blocks.push(tail);
      this.#starts.push(this.#tailStart);
      this.#tail = "";
    }
    this.#pieces = 0;
    this.#tailStart = this.length;
  }

  /**
   * A slice of the sealed blocks (`b` is at most the tail's start). One that
   * spans blocks is concatenated, not copied: V8 joins it on first use.
   */
  #sealed(a: number, b: number): string {
    const blocks = this.#blocks;
    const starts = this.#starts;
    let k = this.#find(a);
    const first = blocks[k];
    const off = a - starts[k];
    if (b - starts[k] <= first.length) return first.slice(off, b - starts[k]);
    let out = first.slice(off);
    for (k++; k < blocks.length && starts[k] < b; k++) {
      const c = blocks[k];
      out += b - starts[k] >= c.length ? c : c.slice(0, b - starts[k]);
    }
    return out;
  }

  /** Index of the block holding position `a` (the last block starting at or before it). */
  #find(a: number): number {
    const starts = this.#starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= a) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** Chunks at least this long are blocks of their own; the tail is sealed at this length. */
const BLOCK = 4096;
/** A tail of more pieces than this is flattened when sealed. */
const FLATTEN_PIECES = BLOCK / 8;
/** Chunks at most this long are buffered as character codes. */
const TINY = 4;
/** Capacity of the code buffer. */
const CODES = 2048;

/** `n` zeros in a packed array of small integers (what V8 reads fastest). */
function zeros(n: number): number[] {
  const a: number[] = [];
  for (let i = 0; i < n; i++) a.push(0);
  return a;
}

/** The code buffer before it is needed. */
const NO_CODES: number[] = [];
