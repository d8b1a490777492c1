/**
 * Which earlier session the chat or `run` continues: `--continue` (the latest
 * of this directory), `--resume <id>` (a given one; a unique prefix is
 * enough), or, in the chat on a terminal, the user's pick from this
 * directory's sessions. Sessions of other directories are never offered, and
 * naming one is refused.
 *
 * @example
 * ```ts
 * const target = await chooseResume(opts, settings.cwd, { interactive: Deno.stdin.isTerminal() });
 * const session = await openSession({ ...options, resume: target ?? undefined });
 * ```
 * @module
 */
import type { ChatMessage } from "../interfaces/agent.ts";
import type { SessionFile, SessionRecorder } from "../interfaces/history.ts";
import { homeInputs, homePaths, resolveHome } from "../core/config/paths.ts";
import { conversationOf, pendingResult } from "../core/history/conversation.ts";
import { findSession } from "../core/history/lookup.ts";
import { createRecorder, resumeRecorder } from "../core/history/recorder.ts";
import {
  holderOf,
  isSessionLocked,
  lockPathOf,
  SessionBusyError,
} from "../core/history/session_lock.ts";
import type { BusyChoice } from "./prompt/session_busy.ts";
import { listSessions, loadSession, type SessionSummary } from "../core/history/store.ts";
import { CliError, EXIT } from "./io.ts";

/** The resume flags of the chat and `run`. */
export interface ResumeFlags {
  continue?: true;
  resume?: string;
  /** false with `--no-session`. */
  session?: boolean;
}

/** A session to continue: its file and what it holds. */
export interface ResumeTarget {
  path: string;
  session: SessionFile;
  /** Continue a copy as a new session in this `history/sessions` folder (the file is in use). */
  forkInto?: string;
}

/** How {@link chooseResume} looks and asks. */
export interface ChooseOptions {
  /** Offer the pick list when there is no flag (the chat on a terminal). */
  interactive: boolean;
  /** `history/sessions` of the `.minoc` home; resolved when absent. */
  sessionsDir?: string;
  /** The pick list; the terminal prompt by default. */
  pick?(sessions: readonly SessionSummary[]): Promise<SessionSummary | null>;
  /** What to do with a session in use (interactive only); the terminal prompt by default. */
  busy?(sessionId: string, holder: string): Promise<BusyChoice>;
}

/** The session to continue in `cwd`, or null for a new one; usage errors exit 2. */
export async function chooseResume(
  flags: ResumeFlags,
  cwd: string,
  o: ChooseOptions,
): Promise<ResumeTarget | null> {
  checkFlags(flags);
  const flagged = flags.continue === true || flags.resume !== undefined;
  if (!flagged && (!o.interactive || flags.session === false)) return null;
  const dir = o.sessionsDir ?? homePaths((await resolveHome(homeInputs())).dir).sessions;
  const here = await listSessions(dir, { projectPath: cwd });
  const mine = here.filter((s) => s.messageCount > 0);
  let chosen: SessionSummary | null;
  if (flags.continue) {
    chosen = mine[0] ?? null;
    if (chosen === null) {
      throw new CliError(
        `No earlier session in "${cwd}" to continue: start one with "minoc" or "minoc run"`,
        EXIT.usage,
      );
    }
  } else if (flags.resume !== undefined) {
    chosen = await byId(dir, here, flags.resume, cwd);
  } else {
    if (mine.length === 0) return null;
    const pick = o.pick ?? (await import("./prompt/session_pick.ts")).pickSession;
    chosen = await pick(mine);
  }
  if (chosen === null) return null;
  let session: SessionFile;
  try {
    session = await loadSession(chosen.path);
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.failed);
  }
  if (!isSessionLocked(chosen.path)) return { path: chosen.path, session };
  const holder = holderOf(lockPathOf(chosen.path));
  if (!o.interactive) throw busyError(chosen.id, holder);
  const ask = o.busy ?? (await import("./prompt/session_busy.ts")).askBusy;
  const choice = await ask(chosen.id, holder);
  if (choice === "quit") throw busyError(chosen.id, holder);
  return choice === "new" ? null : { path: chosen.path, session, forkInto: dir };
}

/** The error (exit 3) for a session another process is writing. */
function busyError(id: string, holder: string): CliError {
  return new CliError(
    `Session ${id} is in use by another minoc process (${holder}): wait for it to end, ` +
      "or start a new session (run without --continue/--resume)",
    EXIT.busy,
  );
}

function checkFlags(flags: ResumeFlags): void {
  if (flags.continue && flags.resume !== undefined) {
    throw new CliError("--continue and --resume cannot be used together: give one", EXIT.usage);
  }
  if ((flags.continue || flags.resume !== undefined) && flags.session === false) {
    throw new CliError(
      `${flags.continue ? "--continue" : "--resume"} records into the resumed session: ` +
        "drop --no-session",
      EXIT.usage,
    );
  }
}

/** This directory's session with that id or unique id prefix; others are refused. */
async function byId(
  sessionsDir: string,
  mine: readonly SessionSummary[],
  id: string,
  cwd: string,
): Promise<SessionSummary> {
  const exact = mine.find((s) => s.id === id);
  if (exact) return exact;
  const matches = id.trim() === "" ? [] : mine.filter((s) => s.id.startsWith(id));
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    const some = matches.slice(0, 3).map((s) => s.id).join(", ");
    throw new CliError(
      `Session id "${id}" is ambiguous: it starts ${some}; give more of it`,
      EXIT.usage,
    );
  }
  const anywhere = await findSession(sessionsDir, id);
  if (anywhere.ok) {
    throw new CliError(
      `Session "${anywhere.summary.id}" belongs to another directory ` +
        `"${anywhere.summary.projectPath}": run minoc there to resume it`,
      EXIT.usage,
    );
  }
  throw new CliError(
    `Unknown session "${id}" in "${cwd}": run "minoc history list" to see this directory's sessions`,
    EXIT.usage,
  );
}

/** What continuing a session gives the loop: its recorder and the conversation so far. */
export interface Resumed {
  recorder: SessionRecorder;
  messages: ChatMessage[];
}

/**
 * Reopens `target`'s file for recording and rebuilds the conversation the
 * model saw. `systemPrompt` replaces the recorded one only when `mode` is not
 * the recorded mode. A result the cut-short record still owed the model is
 * recorded and sent first; a `resumed` system entry marks the restart.
 */
export async function resumeSession(
  target: ResumeTarget,
  o: { systemPrompt: string; mode: "agent" | "plan"; model: string; warn?(m: string): void },
): Promise<Resumed> {
  let recorder: SessionRecorder;
  try {
    recorder = target.forkInto === undefined
      ? await resumeRecorder(target.path, { onWriteError: o.warn })
      : await forkRecorder(target.forkInto, target.session, o.warn);
  } catch (error) {
    if (error instanceof SessionBusyError) {
      throw busyError(target.session.sessionId, error.holder);
    }
    throw new CliError(
      `Cannot resume session "${target.path}": ${(error as Error).message}`,
      EXIT.failed,
    );
  }
  // Read again under the lock: what another process added meanwhile is kept.
  const current = recorder.snapshot();
  const messages = conversationOf(current);
  const switched = o.mode !== current.mode;
  if (switched) messages[0] = { role: "system", content: o.systemPrompt };
  await recorder.append({
    role: "system",
    event: "resumed",
    content:
      `${target.forkInto === undefined ? "Resumed" : `Forked from ${target.session.sessionId}`}` +
      ` with model ${o.model}${switched ? ` in ${o.mode} mode` : ""}`,
  });
  const owed = pendingResult(current);
  if (owed !== undefined) {
    messages.push({ role: "user", content: owed });
    await recorder.append({ role: "user", content: owed });
  }
  return { recorder, messages };
}

/** A new session holding a copy of `source`'s messages (its file is in use elsewhere). */
function forkRecorder(
  sessionsDir: string,
  source: SessionFile,
  onWriteError?: (message: string) => void,
): Promise<SessionRecorder> {
  return createRecorder({
    onWriteError,
    sessionsDir,
    model: source.model,
    projectPath: source.projectPath,
    mode: source.mode,
    systemPrompt: source.systemPrompt,
    messages: source.messages,
    metadata: { forkedFrom: source.sessionId, messageCount: source.messages.length },
  });
}
