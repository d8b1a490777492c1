/**
 * Character-level helpers shared by the prose and call scanners: a reader for
 * one `<name>` or `</name>` tag that may be split across chunks.
 *
 * @module
 */

/** Character code of `<`. */
export const LT = 60;
/** Character code of `>`. */
export const GT = 62;
/** Character code of `/`. */
export const SLASH = 47;
/** Character code of a backtick. */
export const BACKTICK = 96;
/** Character code of a line feed. */
export const NL = 10;

const NAME_START = new Uint8Array(128);
const NAME_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_]/.test(ch)) NAME_START[c] = 1;
  if (/[A-Za-z0-9_.:-]/.test(ch)) NAME_CHAR[c] = 1;
}

/** Whether `c` is a space, tab, carriage return or line feed. */
export function isSpace(c: number): boolean {
  return c === 32 || c === NL || c === 13 || c === 9;
}

/** Outcome of {@link TagReader.read}. */
export const Tag = {
  /** The chunk ended inside the tag: feed the next one. */
  More: 0,
  /** A complete tag was read: see `close`, `name`, `start`. */
  Done: 1,
  /** Not a tag (or a name too long to matter); the character at the returned index is not consumed. */
  Abort: 2,
} as const;

/** One of the {@link Tag} outcomes. */
export type TagResult = typeof Tag[keyof typeof Tag];

/**
 * Reads one tag, `<name>` or `</name>`, character by character so that a
 * chunk boundary anywhere inside it changes nothing. Names longer than
 * `maxName` are not tags of interest and abort the read early; after
 * {@link TagReader.expect}, a name that is not expected is read as `""` and
 * an expected one as that very string, so no tag costs an allocation.
 *
 * @example
 * ```ts
 * const tag = new TagReader(9);
 * tag.begin(0);
 * tag.read("<thinking>", 1); // Tag.Done, tag.name === "thinking"
 * ```
 */
export class TagReader {
  /** 0 idle, 1 after `<`, 2 after `</`, 3 inside the name. */
  state = 0;
  /** Absolute position of the `<`. */
  start = 0;
  /** Whether the tag is a closing tag. */
  close = false;
  /** The name of the tag last read completely (`""` when it is not expected). */
  name = "";
  /** Result of the last {@link read}. */
  result: TagResult = Tag.More;
  #maxName: number;
  /** Character codes of the name read so far in earlier chunks. */
  #codes: Uint16Array;
  #held = 0;
  /** The expected names, by length; null: every name. */
  #byLength: string[][] | null = null;

  constructor(maxName: number) {
    this.#maxName = maxName;
    this.#codes = new Uint16Array(maxName);
  }

  /** The longest name read; longer ones abort the tag. */
  get maxName(): number {
    return this.#maxName;
  }

  /**
   * Reads only these names (none longer than the longest of them); other
   * names come out as `""`.
   */
  expect(names: readonly string[]): void {
    let longest = 0;
    for (const n of names) longest = Math.max(longest, n.length);
    const byLength: string[][] = Array.from({ length: longest + 1 }, () => []);
    for (const n of names) byLength[n.length].push(n);
    this.#maxName = longest;
    this.#byLength = byLength;
    if (this.#codes.length < longest) this.#codes = new Uint16Array(longest);
  }

  /** Starts a tag at absolute position `start` (the `<` itself is consumed). */
  begin(start: number): void {
    this.state = 1;
    this.start = start;
    this.close = false;
    this.#held = 0;
  }

  /** Forgets a partial tag (the text it covered is plain text). */
  reset(): void {
    this.state = 0;
    this.#held = 0;
  }

  /** Continues the tag at `chunk[i]`; returns the index after the consumed characters. */
  read(chunk: string, i: number): number {
    const n = chunk.length;
    let from = i;
    while (i < n) {
      const c = chunk.charCodeAt(i);
      if (this.state === 3) {
        if (c < 128 && NAME_CHAR[c] === 1) {
          i++;
          if (this.#held + i - from > this.#maxName) return this.#abort(i);
          continue;
        }
        if (c !== GT) return this.#abort(i);
        this.name = this.#name(chunk, from, i);
        this.state = 0;
        this.#held = 0;
        this.result = Tag.Done;
        return i + 1;
      }
      if (this.state === 1 && c === SLASH) {
        this.close = true;
        this.state = 2;
        i++;
        continue;
      }
      if (c >= 128 || NAME_START[c] !== 1) return this.#abort(i);
      this.state = 3;
      from = i;
    }
    if (this.state === 3) this.#hold(chunk, from, n);
    this.result = Tag.More;
    return n;
  }

  /** The name: the held characters plus `chunk[from..to)`, or `""` if not expected. */
  #name(chunk: string, from: number, to: number): string {
    const held = this.#held;
    const byLength = this.#byLength;
    if (byLength === null) {
      let head = "";
      for (let k = 0; k < held; k++) head += String.fromCharCode(this.#codes[k]);
      return head + chunk.slice(from, to);
    }
    const names = byLength[held + to - from];
    for (let k = 0; k < names.length; k++) {
      if (this.#matches(names[k], chunk, from)) return names[k];
    }
    return "";
  }

  /** Whether the held characters plus `chunk` from `from` spell `name`. */
  #matches(name: string, chunk: string, from: number): boolean {
    const held = this.#held;
    const codes = this.#codes;
    for (let k = 0; k < held; k++) if (codes[k] !== name.charCodeAt(k)) return false;
    const off = from - held;
    for (let k = held; k < name.length; k++) {
      if (chunk.charCodeAt(off + k) !== name.charCodeAt(k)) return false;
    }
    return true;
  }

  /** Keeps the name's characters `chunk[from..to)` for the next chunk. */
  #hold(chunk: string, from: number, to: number): void {
    const codes = this.#codes;
    let held = this.#held;
    for (let k = from; k < to; k++) codes[held++] = chunk.charCodeAt(k);
    this.#held = held;
  }

  #abort(i: number): number {
    this.reset();
    this.result = Tag.Abort;
    return i;
  }
}
