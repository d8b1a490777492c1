/**
 * Reads a session file one message at a time, so that a history of any size
 * is aggregated in bounded memory: only the current line is held, never the
 * whole file. Files in the line layout (see `../format.ts`) are streamed;
 * an older single-line file is read whole (it is small by construction).
 *
 * @example
 * ```ts
 * await streamSession(path, {
 *   header: (h) => console.log(h.model),
 *   message: (m) => count++,
 * });
 * ```
 * @module
 */
import { join } from "node:path";
import type { SessionMessage, SessionMetadata } from "../../../interfaces/history.ts";
import {
  parseHeaderLine,
  parseMessageLine,
  parseSessionText,
  type SessionHeader,
  TAIL_START,
} from "../format.ts";

/** What {@link streamSession} calls, in file order. */
export interface SessionVisitor {
  /** The session's header; return false to skip the rest of the file. */
  header(header: SessionHeader): boolean | void;
  message(message: SessionMessage): void;
  /** The totals, when the file has a readable tail. */
  metadata?(metadata: Partial<SessionMetadata>): void;
}

const CHUNK = 64 * 1024;

/**
 * Streams `path` to `visitor`. A file cut short by a crash yields its whole
 * messages. Throws with the file's name when it is not a session file.
 */
export async function streamSession(path: string, visitor: SessionVisitor): Promise<void> {
  using file = await Deno.open(path);
  const lines = linesOf(file);
  try {
    const first = await lines.next();
    if (first.done) throw new Error(`Cannot read session "${path}": the file is empty`);
    const header = parseHeaderLine(first.value);
    if (header === undefined) return await wholeFile(path, first.value, lines, visitor);
    if (visitor.header(header) === false) return;
    for await (const line of lines) {
      if (line.startsWith(TAIL_START)) return tail(line, visitor);
      const message = parseMessageLine(line);
      if (message === undefined) return; // cut by a crash: the rest is unreadable
      visitor.message(message);
    }
  } finally {
    await lines.return(undefined);
  }
}

/** A file not in the line layout: parsed whole, then visited. */
async function wholeFile(
  path: string,
  first: string,
  rest: AsyncGenerator<string>,
  visitor: SessionVisitor,
): Promise<void> {
  const parts = [first];
  for await (const line of rest) parts.push(line);
  let session;
  try {
    session = parseSessionText(parts.join("\n")).session;
  } catch (error) {
    throw new Error(`Cannot read session "${path}": ${(error as Error).message}`);
  }
  const { messages, metadata, ...header } = session;
  if (visitor.header(header) === false) return;
  for (const m of messages) visitor.message(m);
  visitor.metadata?.(metadata);
}

function tail(line: string, visitor: SessionVisitor): void {
  try {
    const value = JSON.parse(`{${line.slice(2)}`.trimEnd());
    if (value && typeof value.metadata === "object") visitor.metadata?.(value.metadata);
  } catch {
    // a tail cut by a crash: the messages already seen are what there is
  }
}

/** Read buffers kept for reuse: reading thousands of files allocates no new ones. */
const POOL: Uint8Array[] = [];

/** The file's lines without their newline characters. */
async function* linesOf(file: Deno.FsFile): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const buf = POOL.pop() ?? new Uint8Array(CHUNK);
  try {
    let pending = "";
    for (;;) {
      const n = await file.read(buf);
      if (n === null) break;
      pending += decoder.decode(buf.subarray(0, n), { stream: true });
      let start = 0;
      for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n", start)) {
        yield pending.slice(start, nl);
        start = nl + 1;
      }
      pending = pending.slice(start);
    }
    pending += decoder.decode();
    if (pending !== "") yield pending;
  } finally {
    if (POOL.length < 4) POOL.push(buf);
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const FILE = /^session_.+\.json$/;

/**
 * Every session file under `sessionsDir`, newest first by name (day folder,
 * then the id, which starts with the start time), without opening any.
 */
export async function sessionFilesNewestFirst(sessionsDir: string): Promise<string[]> {
  const out: string[] = [];
  for (const day of (await names(sessionsDir)).filter((d) => DAY.test(d)).sort().reverse()) {
    const files = (await names(join(sessionsDir, day))).filter((f) => FILE.test(f));
    for (const f of files.sort().reverse()) out.push(join(sessionsDir, day, f));
  }
  return out;
}

async function names(dir: string): Promise<string[]> {
  try {
    return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}
