/**
 * The text of a streamed reply, kept as the chunks that arrived so appending
 * is O(1) and never copies the whole buffer (a growing string would be
 * flattened again on every read).
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
  #chunks: string[] = [];
  #starts: number[] = [];
  /** Small chunks not yet joined into a block, starting at `#pendStart`. */
  #pend: string[] = [];
  #pendStart = 0;
  /** The chunk appended last, for slices that fall inside it. */
  #last = "";
  #lastStart = 0;

  /** Adds the next chunk. */
  append(chunk: string): void {
    this.#last = chunk;
    this.#lastStart = this.length;
    if (chunk.length >= SMALL) {
      this.#seal();
      this.#chunks.push(chunk);
      this.#starts.push(this.length);
      this.length += chunk.length;
      this.#pendStart = this.length;
      return;
    }
    this.#pend.push(chunk);
    this.length += chunk.length;
    if (this.#pend.length >= PEND_PIECES) this.#seal();
  }

  /** The text between absolute positions `a` and `b` (end exclusive). */
  slice(a: number, b: number): string {
    if (b > this.length) b = this.length;
    if (a >= b) return "";
    if (a >= this.#lastStart) return this.#last.slice(a - this.#lastStart, b - this.#lastStart);
    if (b > this.#pendStart) this.#seal();
    const chunks = this.#chunks;
    const starts = this.#starts;
    let k = this.#find(a);
    const first = chunks[k];
    const off = a - starts[k];
    if (b - starts[k] <= first.length) return first.slice(off, b - starts[k]);
    const parts = [first.slice(off)];
    for (k++; k < chunks.length && starts[k] < b; k++) {
      const c = chunks[k];
      parts.push(b - starts[k] >= c.length ? c : c.slice(0, b - starts[k]));
    }
    return parts.join("");
  }

  /** The whole text; the chunks are merged into one from then on. */
  text(): string {
    this.#seal();
    if (this.#chunks.length === 1) return this.#chunks[0];
    const all = this.#chunks.join("");
    this.#chunks = [all];
    this.#starts = [0];
    return all;
  }

  /** Joins the pending small chunks into one block. */
  #seal(): void {
    const pend = this.#pend;
    if (pend.length > 0) {
      this.#chunks.push(pend.length === 1 ? pend[0] : pend.join(""));
      this.#starts.push(this.#pendStart);
      this.#pend = [];
    }
    this.#pendStart = this.length;
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

/** Chunks shorter than this are joined into blocks, so a stream of tiny chunks stays cheap. */
const SMALL = 16;
/** Small chunks are joined into a block once this many are pending. */
const PEND_PIECES = 256;
