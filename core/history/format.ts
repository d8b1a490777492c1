/**
 * The on-disk layout of a session file, and a tolerant reader for it.
 *
 * The file is one JSON object laid out as a line journal, so that appending a
 * message is one positioned write whose cost does not depend on the session's
 * length:
 *
 * ```text
 * {"sessionId":"…","timestamp":"…",…,"mode":"agent","messages":[   <- header line
 * {"role":"user","content":"…","timestamp":"…"},                   <- one line per message
 * {"role":"assistant","content":"…","timestamp":"…"}
 * ],"metadata":{"totalTokens":0,…}}                                 <- tail line
 * ```
 *
 * `JSON.stringify` escapes every newline inside strings, so each message is
 * exactly one line. The tail may be followed by spaces (a shorter tail never
 * leaves stale bytes behind), which JSON allows.
 *
 * @module
 */
import type { SessionFile, SessionMessage, SessionMetadata } from "../../interfaces/history.ts";

/** The session fields that come before the messages. */
export type SessionHeader = Omit<SessionFile, "messages" | "metadata">;

/** How the tail line begins. */
export const TAIL_START = '],"metadata":';

/** Metadata of a session that has done nothing yet. */
export function defaultMetadata(): SessionMetadata {
  return {
    totalTokens: 0,
    promptTokens: 0,
    completionTokens: 0,
    duration: 0,
    turns: 0,
    toolCalls: 0,
    parseErrors: 0,
    filesChanged: [],
  };
}

/** A sortable, unique id such as `20261122-075300-a1b2c3` (local time). */
export function newSessionId(now: Date): string {
  const bytes = crypto.getRandomValues(new Uint8Array(3));
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const stamp = `${dayFolder(now).replaceAll("-", "")}-${pad(now.getHours())}${
    pad(now.getMinutes())
  }${pad(now.getSeconds())}`;
  return `${stamp}-${hex}`;
}

/** The `YYYY-MM-DD` folder (local date) a session started at `now` goes in. */
export function dayFolder(now: Date): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The header line, ending with the opening bracket of `messages`. */
export function headerText(header: SessionHeader): string {
  const { sessionId, timestamp, model, systemPrompt, projectPath, mode } = header;
  const json = JSON.stringify({
    sessionId,
    timestamp,
    model,
    systemPrompt,
    projectPath,
    mode,
    messages: [],
  });
  return json.slice(0, -2);
}

/** The tail line without its final newline: closes `messages`, holds the metadata. */
export function tailText(metadata: SessionMetadata): string {
  return `\n${TAIL_START}${JSON.stringify(metadata)}}`;
}

/** The whole file for a session, as the recorder lays it out. */
export function renderSession(session: SessionFile): string {
  const lines = session.messages.map((m) => JSON.stringify(m));
  const body = lines.length === 0 ? "" : `\n${lines.join(",\n")}`;
  return `${headerText(session)}${body}${tailText(session.metadata)}\n`;
}

/**
 * Reads a session file's text. Valid JSON is taken as it is; a file whose last
 * write was cut short (a crash in the middle of a write) is rebuilt from its
 * complete lines, dropping the message that was being written.
 */
export function parseSessionText(text: string): { session: SessionFile; repaired: boolean } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { session: recoverLines(text), repaired: true };
  }
  return { session: normalize(parsed), repaired: false };
}

/** Turns parsed JSON into a session, filling metadata defaults; throws when it is not one. */
export function normalize(value: unknown): SessionFile {
  if (!isRecord(value) || typeof value.sessionId !== "string" || !Array.isArray(value.messages)) {
    throw new Error("not a session: expected an object with sessionId and messages");
  }
  const metadata = isRecord(value.metadata) ? value.metadata : {};
  return {
    ...(value as unknown as SessionFile),
    metadata: { ...defaultMetadata(), ...metadata } as SessionMetadata,
  };
}

/** True for an object with a role, content and timestamp. */
export function isMessage(value: unknown): value is SessionMessage {
  return isRecord(value) && typeof value.role === "string" &&
    typeof value.content === "string" && typeof value.timestamp === "string";
}

/** Parses one message line (`{…}` or `{…},`); undefined when it is not a whole message. */
export function parseMessageLine(line: string): SessionMessage | undefined {
  const json = line.endsWith(",") ? line.slice(0, -1) : line;
  if (!json.startsWith("{") || !json.endsWith("}")) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    return isMessage(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Parses the header line (ending in `"messages":[`); undefined when it is not one. */
export function parseHeaderLine(line: string): SessionHeader | undefined {
  if (!line.endsWith('"messages":[')) return undefined;
  try {
    const value = normalize(JSON.parse(`${line}]}`));
    const { messages: _m, metadata: _d, ...header } = value;
    return header;
  } catch {
    return undefined;
  }
}

function recoverLines(text: string): SessionFile {
  const lines = text.split("\n");
  const header = parseHeaderLine(lines[0]);
  if (header === undefined) throw new Error("not valid JSON and not a recoverable session");
  const messages: SessionMessage[] = [];
  let i = 1;
  for (; i < lines.length; i++) {
    const message = parseMessageLine(lines[i]);
    if (message === undefined) break;
    messages.push(message);
  }
  const metadata = parseTail(lines[i]) ?? totalsFrom(header, messages);
  return {
    ...header,
    messages,
    metadata: { ...metadata, messageCount: messages.length, repaired: true },
  };
}

function parseTail(line: string | undefined): SessionMetadata | undefined {
  if (line === undefined || !line.startsWith(TAIL_START)) return undefined;
  try {
    const value: unknown = JSON.parse(`{${line.slice(2)}`);
    if (!isRecord(value) || !isRecord(value.metadata)) return undefined;
    return { ...defaultMetadata(), ...value.metadata } as SessionMetadata;
  } catch {
    return undefined;
  }
}

/** Rebuilds the totals that can be read back from the messages themselves. */
function totalsFrom(header: SessionHeader, messages: SessionMessage[]): SessionMetadata {
  const meta = defaultMetadata();
  for (const m of messages) {
    if (m.role === "assistant") meta.turns++;
    if (m.role === "tool_call") meta.toolCalls++;
    if (!m.usage) continue;
    meta.promptTokens += m.usage.promptTokens;
    meta.completionTokens += m.usage.completionTokens;
    meta.totalTokens += m.usage.totalTokens;
  }
  const last = messages.at(-1)?.timestamp;
  if (last) meta.duration = Math.max(0, Date.parse(last) - Date.parse(header.timestamp));
  return meta;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}
