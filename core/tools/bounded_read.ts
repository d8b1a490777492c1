/**
 * Reading a file from disk with limits: only regular files (a FIFO, a
 * device or a socket can block forever or never end), and never more bytes
 * than asked for, counted as they are read (a file that grows while it is
 * read, or lies about its size, cannot make memory grow without bound).
 *
 * @example
 * ```ts
 * const bytes = await readRegularFile("notes.md", { maxBytes: 1024 });
 * if (bytes.length > 1024) console.log("larger than 1 KB");
 * ```
 * @module
 */

/** Thrown for a path that is not a regular file (FIFO, device, socket, directory). */
export class NotRegularFileError extends Error {
  constructor(path: string, readonly kind: string) {
    super(`"${path}" is ${kind}, not a regular file: only regular files can be read`);
    this.name = "NotRegularFileError";
  }
}

/** What a path is, in words, for the error message. */
export function fileKind(info: Deno.FileInfo): string {
  if (info.isFile) return "a regular file";
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a named pipe (FIFO)";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "a special file";
}

/**
 * Files up to this size are read synchronously: opening and reading a small
 * file takes microseconds, while each asynchronous step waits for a worker
 * thread (~50–100 µs on the agent's turn). Larger files are read in steps.
 */
export const SYNC_READ_BYTES = 1 << 20;

/**
 * The bytes of the regular file `path`. With `maxBytes`, at most
 * `maxBytes + 1` bytes are read: a longer result means the file holds more
 * than `maxBytes`, and the caller decides what that means. Rejects with
 * {@link NotRegularFileError} before opening anything else, so a FIFO is
 * never opened (opening one blocks until a writer comes).
 */
export async function readRegularFile(
  path: string,
  o: { maxBytes?: number } = {},
): Promise<Uint8Array> {
  const chunks = regularChunks(path, o);
  if (chunks.size <= SYNC_READ_BYTES) return readAllSync(path, chunks);
  using file = await Deno.open(path, { read: true });
  while (chunks.wants()) if (!chunks.took(await file.read(chunks.next()))) break;
  return chunks.bytes();
}

/** The bytes of the regular file `path`, as {@link readRegularFile} reads them, synchronously. */
export function readRegularFileSync(path: string, o: { maxBytes?: number } = {}): Uint8Array {
  return readAllSync(path, regularChunks(path, o));
}

/** The buffers for a read of `path`, after making sure it is a regular file. */
function regularChunks(path: string, o: { maxBytes?: number }): Chunks {
  const info = Deno.statSync(path);
  if (!info.isFile) throw new NotRegularFileError(path, fileKind(info));
  return new Chunks(info.size, o.maxBytes === undefined ? Infinity : o.maxBytes + 1);
}

function readAllSync(path: string, chunks: Chunks): Uint8Array {
  using file = Deno.openSync(path, { read: true });
  while (chunks.wants()) if (!chunks.took(file.readSync(chunks.next()))) break;
  return chunks.bytes();
}

/** Thrown for a file larger than its reader takes. */
export class FileTooLargeError extends Error {
  constructor(path: string, readonly maxBytes: number) {
    super(`"${path}" holds more than ${maxBytes} bytes: it was not read`);
    this.name = "FileTooLargeError";
  }
}

/**
 * Most bytes of a text file minoc reads for itself: a setting, rule or MCP
 * file, a SKILL.md, an ignore file, a manifest (a repository may hold any of
 * these, and make one a FIFO or a link to `/dev/zero`).
 */
export const TEXT_FILE_MAX_BYTES = 4 << 20;

const decoder = new TextDecoder();

/**
 * The UTF-8 text of the regular file `path`, when it holds at most `maxBytes`
 * bytes. Throws what `Deno.readTextFile` throws (`NotFound` for a missing
 * file), {@link NotRegularFileError} for a FIFO, device or folder (never
 * opened, so it cannot block) and {@link FileTooLargeError}.
 */
export async function readTextFile(path: string, maxBytes = TEXT_FILE_MAX_BYTES): Promise<string> {
  return textOf(path, await readRegularFile(path, { maxBytes }), maxBytes);
}

/** {@link readTextFile}, synchronously. */
export function readTextFileSync(path: string, maxBytes = TEXT_FILE_MAX_BYTES): string {
  return textOf(path, readRegularFileSync(path, { maxBytes }), maxBytes);
}

function textOf(path: string, bytes: Uint8Array, maxBytes: number): string {
  if (bytes.length > maxBytes) throw new FileTooLargeError(path, maxBytes);
  return decoder.decode(bytes);
}

/** The buffers of one read: sized from the file's size, never past `limit` bytes in all. */
class Chunks {
  readonly #list: Uint8Array[] = [];
  #total = 0;
  #buf = new Uint8Array(0);
  readonly #size: number;

  /** `size`: what the file says it holds. */
  constructor(readonly size: number, readonly limit: number) {
    this.#size = Math.min(Math.max(size, 1), 1 << 20);
  }

  wants(): boolean {
    return this.#total < this.limit;
  }

  next(): Uint8Array {
    this.#buf = new Uint8Array(Math.min(this.#size, this.limit - this.#total, 1 << 20));
    return this.#buf;
  }

  /** Keeps what a read returned; false at the end of the file. */
  took(n: number | null): boolean {
    if (n === null) return false;
    this.#list.push(n === this.#buf.length ? this.#buf : this.#buf.subarray(0, n));
    this.#total += n;
    return true;
  }

  bytes(): Uint8Array {
    return join(this.#list, this.#total);
  }
}

function join(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0].byteOffset === 0) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
