/**
 * Reading recorded sessions back: load one, repair one cut short by a crash,
 * list them (newest first, optionally for one project). Finding the cut ones
 * of a project at a start is repair_cut.ts.
 *
 * @example
 * ```ts
 * const [latest] = await listSessions(homePaths(home).sessions, { projectPath: cwd });
 * if (latest) console.log(latest.firstUserMessage, (await loadSession(latest.path)).messages.length);
 * ```
 * @module
 */
import { join, resolve } from "node:path";
import type { SessionFile } from "../../interfaces/history.ts";
import {
  normalize,
  parseHeaderLine,
  parseMessageLine,
  parseSessionText,
  renderSession,
  type SessionHeader,
} from "./format.ts";
import { endIsWhole, endMetadata, firstLine, firstUserMessage } from "./peek.ts";

/** One line of a session listing. */
export interface SessionSummary {
  id: string;
  path: string;
  /** ISO 8601 start time. */
  timestamp: string;
  model: string;
  projectPath: string;
  mode: "agent" | "plan";
  /** The first user message ("" when there is none). */
  firstUserMessage: string;
  messageCount: number;
}

/** Options of {@link listSessions}. */
export interface ListOptions {
  /** Only sessions recorded in this directory (compared as resolved paths). */
  projectPath?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const FILE = /^session_.+\.json$/;

/**
 * Reads a session file. Trailing whitespace is fine; a file cut short in the
 * middle of a write comes back with its complete messages and
 * `metadata.repaired: true`.
 */
export async function loadSession(path: string): Promise<SessionFile> {
  const text = await readText(path);
  try {
    return parseSessionText(text).session;
  } catch (error) {
    throw new Error(`Cannot read session "${path}": ${messageOf(error)}`);
  }
}

/**
 * Rewrites a file cut short by a crash as valid JSON (atomically). Returns
 * true when it had to; a valid file is left untouched.
 */
export async function repairSession(path: string): Promise<boolean> {
  const text = await readText(path);
  let result;
  try {
    result = parseSessionText(text);
  } catch (error) {
    throw new Error(`Cannot repair session "${path}": ${messageOf(error)}`);
  }
  if (!result.repaired) return false;
  const temp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  await Deno.writeTextFile(temp, renderSession(result.session));
  await Deno.rename(temp, path);
  return true;
}

/** A file cut by a crash this long ago (ms) cannot belong to a live writer. */
export const CUT_AGE_MS = 10_000;

/** Every readable session under `sessionsDir`, newest first; unreadable files are skipped. */
export async function listSessions(
  sessionsDir: string,
  opts: ListOptions = {},
): Promise<SessionSummary[]> {
  const wanted = opts.projectPath === undefined ? undefined : resolve(opts.projectPath);
  const out: SessionSummary[] = [];
  for (const path of await sessionPaths(sessionsDir)) {
    const head = readHeader(path);
    // Another project's session is skipped on its header line alone.
    if (wanted !== undefined && head && resolve(head.header.projectPath) !== wanted) continue;
    const summary = (head && peekSummary(path, head)) ??
      await summarize(path).catch(() => undefined);
    if (summary === undefined) continue;
    if (wanted !== undefined && resolve(summary.projectPath) !== wanted) continue;
    out.push(summary);
  }
  return out.sort((a, b) =>
    compare(b.timestamp, a.timestamp) || compare(b.id, a.id) || compare(b.path, a.path)
  );
}

/** Whether a session file ends whole (not cut by a crash); false when unreadable. */
export function whole(path: string): boolean {
  try {
    return endIsWhole(path);
  } catch {
    return false;
  }
}

/** A session's header line and what it says; undefined when it has none (or cannot be read). */
export function readHeader(path: string): { line: string; header: SessionHeader } | undefined {
  try {
    const line = firstLine(path);
    const header = line === null ? undefined : parseHeaderLine(line);
    return header && line !== null ? { line, header } : undefined;
  } catch {
    return undefined;
  }
}

/** Every session file under `sessionsDir` (day folders), in directory order. */
export async function sessionPaths(sessionsDir: string): Promise<string[]> {
  const paths: string[] = [];
  for (const day of await readDirNames(sessionsDir)) {
    if (!DAY.test(day)) continue;
    for (const name of await readDirNames(join(sessionsDir, day))) {
      if (FILE.test(name)) paths.push(join(sessionsDir, day, name));
    }
  }
  return paths;
}

/**
 * Reads the summary from every line of the line layout, or from the whole
 * JSON (see {@link peekSummary} for the quick way).
 */
export async function summarize(path: string): Promise<SessionSummary> {
  const text = await Deno.readTextFile(path);
  const lines = text.split("\n");
  const header = parseHeaderLine(lines[0]);
  if (header === undefined) {
    const session = normalize(JSON.parse(text));
    const first = session.messages.find((m) => m.role === "user");
    return summaryOf(path, session, first?.content ?? "", session.messages.length);
  }
  let count = 0;
  let first: string | undefined;
  for (let i = 1; i < lines.length && isWholeLine(lines[i]); i++) {
    if (first === undefined && lines[i].startsWith('{"role":"user"')) {
      first = parseMessageLine(lines[i])?.content;
      if (first === undefined) break;
    }
    count++;
  }
  return summaryOf(path, header, first ?? "", count);
}

/** The summary from the header, the first user message and the tail's `messageCount`, when it has one. */
function peekSummary(
  path: string,
  head: { line: string; header: SessionHeader },
): SessionSummary | undefined {
  try {
    const count = endMetadata(path)?.messageCount;
    if (typeof count !== "number") return undefined;
    const first = count === 0
      ? ""
      : firstUserMessage(path, new TextEncoder().encode(head.line).length);
    return first === undefined ? undefined : summaryOf(path, head.header, first, count);
  } catch {
    return undefined;
  }
}

function isWholeLine(line: string): boolean {
  return line.startsWith("{") && (line.endsWith("}") || line.endsWith("},"));
}

function summaryOf(
  path: string,
  h: Omit<SessionFile, "messages" | "metadata">,
  firstUserMessage: string,
  messageCount: number,
): SessionSummary {
  return {
    id: h.sessionId,
    path,
    timestamp: h.timestamp,
    model: h.model,
    projectPath: h.projectPath,
    mode: h.mode,
    firstUserMessage,
    messageCount,
  };
}

async function readDirNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return names;
}

async function readText(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    throw new Error(`Cannot read session "${path}": ${messageOf(error)}`);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
