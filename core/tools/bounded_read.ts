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
 * The bytes of the regular file `path`. With `maxBytes`, at most
 * `maxBytes + 1` bytes are read: a longer result means the file holds more
 * than `maxBytes`, and the caller decides what that means. Throws
 * {@link NotRegularFileError} before opening anything else, so a FIFO is
 * never opened (opening one blocks until a writer comes).
 */
export async function readRegularFile(
  path: string,
  o: { maxBytes?: number } = {},
): Promise<Uint8Array> {
  const info = await Deno.stat(path);
  if (!info.isFile) throw new NotRegularFileError(path, fileKind(info));
  using file = await Deno.open(path, { read: true });
  const limit = o.maxBytes === undefined ? Infinity : o.maxBytes + 1;
  const chunks: Uint8Array[] = [];
  let total = 0;
  const size = Math.min(Math.max(info.size, 1), 1 << 20);
  while (total < limit) {
    const buf = new Uint8Array(Math.min(size, limit - total, 1 << 20));
    const n = await file.read(buf);
    if (n === null) break;
    chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    total += n;
  }
  return join(chunks, total);
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
