/**
 * The session recorder: every message and total of a session, written to
 * `<sessionsDir>/YYYY-MM-DD/session_<ID>.json` as it happens.
 *
 * The file is valid JSON after every call, and recording one message costs
 * one write of that message (see `writer.ts`), however long the session is.
 *
 * @example
 * ```ts
 * const rec = await createRecorder({ sessionsDir, model: "gpt-4.1", projectPath: cwd, mode: "agent" });
 * await rec.setSystemPrompt(prompt);
 * await rec.append({ role: "user", content: "Add a line to notes.md" });
 * await rec.update({ totalTokens: 812, turns: 1 });
 * await rec.close();
 * ```
 * @module
 */
import { join } from "node:path";
import { SessionBusyError, type SessionLock, tryLockSession } from "./session_lock.ts";
import type {
  SessionFile,
  SessionMessage,
  SessionMetadata,
  SessionRecorder,
} from "../../interfaces/history.ts";
import {
  dayFolder,
  defaultMetadata,
  headerText,
  newSessionId,
  parseSessionText,
} from "./format.ts";
import { loadSession } from "./store.ts";
import { SessionWriter } from "./writer.ts";
import { redactedJson } from "./redact.ts";

/** What a recorder needs to start a session. */
export interface RecorderOptions {
  /** The `history/sessions` folder of the `.minoc` home. */
  sessionsDir: string;
  model: string;
  projectPath: string;
  mode: "agent" | "plan";
  systemPrompt?: string;
  /** The clock (tests inject one). */
  now?: () => Date;
  /** The session id; a fresh sortable one by default. */
  id?: string;
  /** Messages the session starts with (a fork of another session), timestamps kept. */
  messages?: SessionMessage[];
  /** Totals the session starts with (a fork's `forkedFrom`, …). */
  metadata?: Partial<SessionMetadata>;
  /** Told once when the file cannot be written (a full disk): recording stops, the session goes on. */
  onWriteError?(message: string): void;
}

/** Options of {@link nullRecorder}; everything has a default, and `sessionsDir` is ignored. */
export type NullRecorderOptions = Partial<RecorderOptions>;

/**
 * Starts recording a session: creates the day folder and writes the file at
 * once, then keeps it open until `close()`.
 */
export async function createRecorder(o: RecorderOptions): Promise<SessionRecorder> {
  const now = o.now ?? (() => new Date());
  const started = now();
  const state = initialState(o, started);
  const dir = join(o.sessionsDir, dayFolder(started));
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, `session_${state.sessionId}.json`);
  const lock = lockOrThrow(path);
  const writer = await SessionWriter.create(path, headerText(state), state.metadata)
    .catch((e) => failWith(lock, e));
  writer.hold(lock, o.onWriteError);
  if (state.messages.length > 0) {
    const lines = state.messages.map((m) => JSON.stringify(m));
    await writer.rewrite(headerText(state), lines, state.metadata);
  }
  return new Recorder(state, now, path, writer);
}

/**
 * Reopens a recorded session to continue it (resume): the same file, its
 * messages kept, later appends added after them. A file cut short by a crash
 * is repaired first (its complete messages kept). Totals continue from the
 * recorded metadata; `duration` counts on from the recorded one, so time
 * between the runs is not counted. The file is locked for this process
 * until `close()`: a {@link SessionBusyError} when another process holds it.
 */
export async function resumeRecorder(
  path: string,
  o: { now?: () => Date; onWriteError?(message: string): void } = {},
): Promise<SessionRecorder> {
  // Locked before it is read: what another writer added up to now is kept.
  const lock = lockOrThrow(path);
  try {
    const recorder = await reopenSession(path, o);
    recorder.hold(lock, o.onWriteError);
    return recorder;
  } catch (error) {
    return failWith(lock, error);
  }
}

/** The session's lock; throws {@link SessionBusyError} when another process holds it. */
function lockOrThrow(path: string): SessionLock {
  const attempt = tryLockSession(path);
  if (!attempt.ok) throw new SessionBusyError(path, attempt.holder);
  return attempt.lock;
}

function failWith(lock: SessionLock, error: unknown): never {
  lock.release();
  throw error;
}

/** {@link resumeRecorder} once the lock is held. */
async function reopenSession(
  path: string,
  o: { now?: () => Date } = {},
): Promise<Recorder> {
  const now = o.now ?? (() => new Date());
  const state = await loadSession(path);
  const lines = state.messages.map(redactedJson);
  const writer = await SessionWriter.reopen(path, headerText(state), lines, state.metadata);
  const startedMs = now().getTime() - state.metadata.duration;
  return new Recorder(state, now, path, writer, startedMs);
}

/** A recorder for `--no-session`: keeps the session in memory, writes nothing. */
export function nullRecorder(o: NullRecorderOptions = {}): SessionRecorder {
  const now = o.now ?? (() => new Date());
  const options = { model: "", projectPath: "", mode: "agent" as const, ...o, sessionsDir: "" };
  return new Recorder(initialState(options, now()), now, null, null);
}

function initialState(o: RecorderOptions, started: Date): SessionFile {
  return {
    sessionId: o.id ?? newSessionId(started),
    timestamp: started.toISOString(),
    model: o.model,
    systemPrompt: o.systemPrompt ?? "",
    projectPath: o.projectPath,
    mode: o.mode,
    messages: (o.messages ?? []).map((m) => ({ ...m })),
    metadata: { ...defaultMetadata(), ...o.metadata },
  };
}

/**
 * Mirrors each change of the session to the writer (when there is one). A
 * message stays in memory only until its write completes: the conversation
 * holds what the model needs, and the file holds the record, so a long
 * session's tool outputs are not kept twice. Reading `snapshot().messages`
 * reads the written ones back. Without a writer (`--no-session`) the
 * messages stay in memory. The recorder keeps `metadata.duration` current;
 * every other total comes from `update()`.
 */
class Recorder implements SessionRecorder {
  readonly #state: SessionFile;
  /** Every message in order; null once it is in the file. */
  readonly #messages: (SessionMessage | null)[];
  readonly #now: () => Date;
  readonly #started: number;
  readonly #writer: SessionWriter | null;
  readonly path: string | null;

  constructor(
    state: SessionFile,
    now: () => Date,
    path: string | null,
    writer: SessionWriter | null,
    startedMs = Date.parse(state.timestamp),
  ) {
    this.#state = state;
    // Messages already in the file (a resumed session) are read back when needed.
    this.#messages = writer ? state.messages.map(() => null) : [...state.messages];
    state.messages = [];
    this.#now = now;
    this.#started = startedMs;
    this.path = path;
    this.#writer = writer;
  }

  get sessionId(): string {
    return this.#state.sessionId;
  }

  append(
    message: Omit<SessionMessage, "timestamp">,
    totals?: Partial<SessionMetadata>,
  ): Promise<void> {
    const at = this.#now();
    if (totals !== undefined) Object.assign(this.#state.metadata, totals);
    const { role, content, ...details } = message;
    const full: SessionMessage = { role, content, timestamp: at.toISOString(), ...details };
    const index = this.#messages.push(full) - 1;
    // Kept in the tail, so listings need not read the whole file to count.
    this.#state.metadata.messageCount = this.#messages.length;
    this.#touch(at);
    const writer = this.#writer;
    if (writer === null) return Promise.resolve();
    return writer.append(redactedJson(full), this.#state.metadata).then(() => {
      // Dropped from memory only once it is in the file (a failed disk keeps it here).
      if (!writer.failed) this.#messages[index] = null;
    });
  }

  update(metadata: Partial<SessionMetadata>): Promise<void> {
    this.#touch(this.#now());
    Object.assign(this.#state.metadata, metadata);
    return this.#writer?.writeTail(this.#state.metadata) ?? Promise.resolve();
  }

  setSystemPrompt(prompt: string): Promise<void> {
    this.#state.systemPrompt = prompt;
    if (this.#writer === null) return Promise.resolve();
    const lines = this.#all(this.#messages.length).map(redactedJson);
    return this.#writer.rewrite(headerText(this.#state), lines, this.#state.metadata);
  }

  close(): Promise<void> {
    return this.#writer?.close() ?? Promise.resolve();
  }

  /** Hands the writer the session's lock and where to tell a failed write (writer.ts). */
  hold(lock: SessionLock, onWriteError?: (message: string) => void): void {
    this.#writer?.hold(lock, onWriteError);
  }

  snapshot(): SessionFile {
    const s = this.#state;
    // Most callers read only the metadata, once per turn: the messages are copied when read,
    // so a turn's cost and garbage do not grow with the session.
    const count = this.#messages.length;
    const all = (n: number) => this.#all(n);
    let copied: SessionMessage[] | undefined;
    return {
      ...s,
      get messages() {
        return copied ??= all(count).map((m) => ({ ...m }));
      },
      metadata: { ...s.metadata, filesChanged: [...s.metadata.filesChanged] },
    };
  }

  /** The first `n` messages: those still in memory, the others read back from the file. */
  #all(n: number): SessionMessage[] {
    const kept = this.#messages.slice(0, n);
    if (this.path === null || kept.every((m) => m !== null)) return kept as SessionMessage[];
    // Writes complete in order and each leaves valid JSON, so the file holds every dropped one.
    const written = parseSessionText(Deno.readTextFileSync(this.path)).session.messages;
    return kept.map((m, i) => m ?? written[i]);
  }

  #touch(at: Date): void {
    this.#state.metadata.duration = Math.max(0, at.getTime() - this.#started);
  }
}
