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
 * `maxName` are not tags of interest and abort the read early.
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
  /** The name of the tag last read completely. */
  name = "";
  /** Result of the last {@link read}. */
  result: TagResult = Tag.More;
  #prefix = "";

  constructor(public maxName: number) {}

  /** Starts a tag at absolute position `start` (the `<` itself is consumed). */
  begin(start: number): void {
    this.state = 1;
    this.start = start;
    this.close = false;
    this.#prefix = "";
  }

  /** Forgets a partial tag (the text it covered is plain text). */
  reset(): void {
    this.state = 0;
    this.#prefix = "";
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
          if (this.#prefix.length + i - from > this.maxName) return this.#abort(i);
          continue;
        }
        if (c !== GT) return this.#abort(i);
        this.name = this.#prefix + chunk.slice(from, i);
        this.state = 0;
        this.#prefix = "";
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
    if (this.state === 3) this.#prefix += chunk.slice(from, n);
    this.result = Tag.More;
    return n;
  }

  #abort(i: number): number {
    this.reset();
    this.result = Tag.Abort;
    return i;
  }
}
