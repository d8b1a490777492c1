/**
 * Cheap looks at a session file without reading it all: its header line
 * (which project, which model) and whether its end is whole. Starting a
 * session checks every earlier session for crash damage and lists this
 * project's sessions; with these, a large history costs a few reads per
 * file instead of reading and parsing every byte.
 *
 * @example
 * ```ts
 * if (!(await endIsWhole(path))) await repairSession(path);
 * const header = parseHeaderLine((await firstLine(path)) ?? "");
 * ```
 * @module
 */
import { parseHeaderLine, parseMessageLine, TAIL_START } from "./format.ts";

const CHUNK = 64 * 1024;
/** A header longer than this (its system prompt) is read in full by the caller instead. */
const MAX_HEADER = 8 * 1024 * 1024;

/** The file's first line, or null when it has none within 8 MB. */
export async function firstLine(path: string): Promise<string | null> {
  using file = await Deno.open(path);
  const decoder = new TextDecoder();
  const buf = new Uint8Array(CHUNK);
  let text = "";
  for (let read = 0; read < MAX_HEADER;) {
    const n = await file.read(buf);
    if (n === null) return null;
    read += n;
    const end = buf.subarray(0, n).indexOf(10);
    if (end >= 0) return text + decoder.decode(buf.subarray(0, end));
    text += decoder.decode(buf.subarray(0, n), { stream: true });
  }
  return null;
}

/**
 * Whether the file ends the way a finished write leaves it: a tail line
 * that parses, after a whole message line or the header. A crash can only
 * cut the last write, which wrote exactly those lines, so the rest of the
 * file needs no look. False also when the end cannot be judged from the
 * last 256 KB (then the caller reads the whole file).
 */
export async function endIsWhole(path: string): Promise<boolean> {
  using file = await Deno.open(path);
  const size = (await file.stat()).size;
  const start = Math.max(0, size - 4 * CHUNK);
  await file.seek(start, Deno.SeekMode.Start);
  const bytes = new Uint8Array(size - start);
  for (let at = 0; at < bytes.length;) {
    const n = await file.read(bytes.subarray(at));
    if (n === null) return false;
    at += n;
  }
  const lines = new TextDecoder().decode(bytes).trimEnd().split("\n");
  // The first line of a chunk that starts mid-file may be cut by the chunk, not the crash.
  if (lines.length < (start === 0 ? 2 : 3)) return false;
  const [before, tail] = lines.slice(-2);
  if (!tail.startsWith(TAIL_START)) return false;
  try {
    const metadata = JSON.parse(`{${tail.slice(2)}`).metadata;
    if (typeof metadata !== "object" || metadata === null) return false;
  } catch {
    return false;
  }
  return parseMessageLine(before) !== undefined ||
    (lines.length === 2 && parseHeaderLine(before) !== undefined);
}
