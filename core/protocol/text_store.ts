/**
 * The text of a streamed reply. Appending never copies the whole buffer and
 * allocates nothing per chunk beyond V8's own string concatenation: small
 * chunks are concatenated into a tail string (a rope V8 builds cheaply),
 * which is sealed into a block once it is long enough; large chunks are
 * blocks of their own. The whole text is joined once, at the end.
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
  /** Small chunks not yet sealed, concatenated, starting at `#tailStart`. */
  #tail = "";
  #tailStart = 0;
  /** The chunk appended last, for slices that fall inside it. */
  #last = "";
  #lastStart = 0;
  #pieces = 0;
  #probe = 0;

  /** Adds the next chunk. */
  append(chunk: string): void {
    const start = this.length;
    this.#last = chunk;
    this.#lastStart = start;
    this.length = start + chunk.length;
    if (chunk.length >= BLOCK) {
      this.#seal(start);
      this.#blocks.push(chunk);
      this.#starts.push(start);
      this.#tailStart = this.length;
      return;
    }
    const tail = this.#tail + chunk;
    this.#tail = tail;
    this.#pieces++;
    if (tail.length >= BLOCK) this.#seal(this.length);
  }

  /** The text between absolute positions `a` and `b` (end exclusive). */
  slice(a: number, b: number): string {
    if (b > this.length) b = this.length;
    if (a >= b) return "";
    if (a >= this.#lastStart) return this.#last.slice(a - this.#lastStart, b - this.#lastStart);
    const t = this.#tailStart;
    if (a >= t) return this.#tail.slice(a - t, b - t);
    const head = this.#sealed(a, Math.min(b, t));
    return b <= t ? head : head + this.#tail.slice(0, b - t);
  }

  /** The whole text; the blocks are merged into one from then on. */
  text(): string {
    this.#seal(this.length);
    const blocks = this.#blocks;
    if (blocks.length === 0) return "";
    if (blocks.length === 1) return blocks[0];
    const all = blocks.join("");
    this.#blocks = [all];
    this.#starts = [0];
    return all;
  }

  /** Moves the tail into the blocks; the next tail starts at `next`. */
  #seal(next: number): void {
    const tail = this.#tail;
    if (tail.length > 0) {
      // A rope of many tiny pieces is flattened now, while they are young
      // garbage: reading a character does it (kept, so it is not optimized away).
      if (this.#pieces > FLATTEN_PIECES) this.#probe = tail.charCodeAt(0);
      this.#pieces = 0;
      this.#blocks.push(tail);
      this.#starts.push(this.#tailStart);
      this.#tail = "";
    }
    this.#tailStart = next;
  }

  /** A slice of the sealed blocks (`b` is at most the tail's start). */
  #sealed(a: number, b: number): string {
    const blocks = this.#blocks;
    const starts = this.#starts;
    let k = this.#find(a);
    const first = blocks[k];
    const off = a - starts[k];
    if (b - starts[k] <= first.length) return first.slice(off, b - starts[k]);
    const parts = [first.slice(off)];
    for (k++; k < blocks.length && starts[k] < b; k++) {
      const c = blocks[k];
      parts.push(b - starts[k] >= c.length ? c : c.slice(0, b - starts[k]));
    }
    return parts.join("");
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
const BLOCK = 1024;
/** A tail of more pieces than this is flattened when sealed. */
const FLATTEN_PIECES = 128;
