/**
 * Cheap looks at a session file without reading it all: its header line
 * (which project, which model) and whether its end is whole. Starting a
 * session checks every earlier session for crash damage and lists this
 * project's sessions; with these, a large history costs a few reads per
 * file instead of reading and parsing every byte. They read synchronously:
 * a few small reads each, where promise hops would cost more than the reads.
 *
 * @example
 * ```ts
 * if (!endIsWhole(path)) await repairSession(path);
 * const header = parseHeaderLine(firstLine(path) ?? "");
 * ```
 * @module
 */
import { parseHeaderLine, parseMessageLine, TAIL_START } from "./format.ts";

const CHUNK = 64 * 1024;
/** The longest header line looked for; past it the caller reads the whole file. */
const MAX_HEADER = 8 * 1024 * 1024;

/** The file's first line, or null when it has none within 8 MB. */
export function firstLine(path: string): string | null {
  using file = Deno.openSync(path);
  const decoder = new TextDecoder();
  const buf = new Uint8Array(CHUNK);
  let text = "";
  for (let read = 0; read < MAX_HEADER;) {
    const n = file.readSync(buf);
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
 * file needs no look. Reads the last 8 KB, more only for a long last
 * message; false when 512 KB is not enough (then the caller reads it all).
 */
export function endIsWhole(path: string): boolean {
  return endMetadata(path) !== null;
}

/** The metadata of a file whose end is whole (see {@link endIsWhole}); null otherwise. */
export function endMetadata(path: string): Record<string, unknown> | null {
  using file = Deno.openSync(path);
  const size = file.statSync().size;
  for (let span = 8 * 1024; span <= MAX_TAIL * 4; span *= 4) {
    const start = Math.max(0, size - span);
    const lines = linesFrom(file, start, size);
    // The first line of a span that starts mid-file may be cut by the span, not the crash.
    if (lines.length >= (start === 0 ? 2 : 3)) return judge(lines, start === 0);
    if (start === 0) return null;
  }
  return null;
}

const MAX_TAIL = 256 * 1024;

function linesFrom(file: Deno.FsFile, start: number, end: number): string[] {
  file.seekSync(start, Deno.SeekMode.Start);
  const bytes = new Uint8Array(end - start);
  for (let at = 0; at < bytes.length;) {
    const n = file.readSync(bytes.subarray(at));
    if (n === null) break;
    at += n;
  }
  return new TextDecoder().decode(bytes).trimEnd().split("\n");
}

function judge(lines: string[], whole: boolean): Record<string, unknown> | null {
  const [before, tail] = lines.slice(-2);
  if (!tail.startsWith(TAIL_START)) return null;
  let metadata: unknown;
  try {
    metadata = JSON.parse(`{${tail.slice(2)}`).metadata;
  } catch {
    return null;
  }
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return null;
  const closes = parseMessageLine(before) !== undefined ||
    (whole && lines.length === 2 && parseHeaderLine(before) !== undefined);
  return closes ? metadata as Record<string, unknown> : null;
}

/**
 * The first user message of a session in the line layout, read from just
 * after the header line (which is `headerBytes` long); undefined when none
 * is among the first 64 KB of messages.
 */
export function firstUserMessage(path: string, headerBytes: number): string | undefined {
  using file = Deno.openSync(path);
  const size = file.statSync().size;
  const lines = linesFrom(
    file,
    Math.min(size, headerBytes + 1),
    Math.min(size, headerBytes + CHUNK),
  );
  for (const line of lines.slice(0, -1)) {
    if (!line.startsWith("{")) return undefined;
    if (line.startsWith('{"role":"user"')) return parseMessageLine(line)?.content;
  }
  return undefined;
}
