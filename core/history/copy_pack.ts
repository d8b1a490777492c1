/**
 * Copies of files kept in one pack file: each copy is appended and read back
 * by its offset. Creating one file per copy costs ~0.2 ms a file on a
 * typical disk; appending to one file costs ~0.02 ms, which matters when a
 * whole project is kept (see bench/undo_bench.ts).
 *
 * @example
 * ```ts
 * const pack = new CopyPack(join(dir, "pack"), 256 * 1024 * 1024);
 * const copy = pack.add("/repo/notes.md"); // null: unreadable or over the limit
 * if (copy) pack.read(copy);
 * ```
 * @module
 */

/** Where one copy sits in the pack. */
export interface PackedCopy {
  at: number;
  length: number;
}

/** An append-only pack of file copies. */
export class CopyPack {
  #file: Deno.FsFile | null = null;
  #size = 0;
  #live = 0;

  constructor(readonly path: string, readonly maxLiveBytes: number) {}

  /** Bytes of the copies still in use. */
  get liveBytes(): number {
    return this.#live;
  }

  /** Appends a copy of the file at `source` (`size` bytes); null when unreadable or past the limit. */
  add(source: string, size: number): PackedCopy | null {
    if (this.#live + size > this.maxLiveBytes) return null;
    let data: Uint8Array;
    try {
      data = Deno.readFileSync(source);
    } catch {
      return null;
    }
    if (this.#live + data.length > this.maxLiveBytes) return null;
    const copy = this.#append(data);
    this.#live += data.length;
    return copy;
  }

  /** The content of a copy. */
  read(copy: PackedCopy): Uint8Array {
    const file = this.#open();
    const out = new Uint8Array(copy.length);
    file.seekSync(copy.at, Deno.SeekMode.Start);
    for (let got = 0; got < out.length;) {
      const n = file.readSync(out.subarray(got));
      if (n === null) throw new Error(`The copy pack "${this.path}" ends early`);
      got += n;
    }
    return out;
  }

  /** Marks a copy as no longer needed. */
  release(copy: PackedCopy): void {
    this.#live -= copy.length;
  }

  /** True when copies no longer needed take more room than those in use (and over 16 MB). */
  wasteful(): boolean {
    const dead = this.#size - this.#live;
    return dead > 16 * 1024 * 1024 && dead > this.#live;
  }

  /** Rewrites the pack with only `copies`; returns their new places, in the same order. */
  compact(copies: readonly PackedCopy[]): PackedCopy[] {
    const data = copies.map((c) => this.read(c));
    this.close();
    Deno.removeSync(this.path);
    this.#size = 0;
    return data.map((d) => this.#append(d));
  }

  /** Closes the pack file. */
  close(): void {
    this.#file?.close();
    this.#file = null;
  }

  #append(data: Uint8Array): PackedCopy {
    const file = this.#open();
    const at = this.#size;
    file.seekSync(at, Deno.SeekMode.Start);
    for (let done = 0; done < data.length;) done += file.writeSync(data.subarray(done));
    this.#size += data.length;
    return { at, length: data.length };
  }

  #open(): Deno.FsFile {
    this.#file ??= Deno.openSync(this.path, { read: true, write: true, create: true });
    return this.#file;
  }
}
