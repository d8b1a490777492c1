/**
 * The crash check at a session's start: finds the project's session files
 * that a crash left cut mid-write and repairs them (`repairSession()` in
 * store.ts), remembering how far it looked (repair_marks.ts) so that a long
 * history is not read again at every start.
 *
 * @example
 * ```ts
 * const repaired = await repairCutSessions(paths.sessions, cwd);
 * // or only while the model works, stopping when told:
 * await repairCutSessions(paths.sessions, cwd, Date.now(), () => warm.slice());
 * ```
 * @module
 */
import { resolve } from "node:path";
import { CUT_AGE_MS, readHeader, repairSession, sessionPaths, summarize, whole } from "./store.ts";
import { tryLockSession } from "./session_lock.ts";
import { checkedUpTo, markChecked } from "./repair_marks.ts";

/**
 * Repairs the session files of `projectPath` that a crash left cut mid-write
 * (see `repairSession()`), so they are valid JSON again. A file modified
 * in the last {@link CUT_AGE_MS} is left alone: a live writer never leaves a
 * file cut for longer than one write. Files written before the last check's
 * horizon are not looked at again (repair_marks.ts); the others are looked at
 * oldest first, and how far the check got is recorded as it goes. `pace`, when
 * given, is awaited before each file: false stops the check there (a session
 * runs it only while the model works). Returns the paths repaired.
 */
export async function repairCutSessions(
  sessionsDir: string,
  projectPath: string,
  now = Date.now(),
  pace?: () => Promise<boolean>,
): Promise<string[]> {
  const repaired: string[] = [];
  const wanted = resolve(projectPath);
  const horizon = now - CUT_AGE_MS;
  const since = checkedUpTo(sessionsDir, wanted);
  const due: { path: string; mtime: number }[] = [];
  const paths = await sessionPaths(sessionsDir);
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i];
    if (pace && i % STATS_PER_PACE === 0 && !await pace()) return repaired;
    const mtime = mtimeOf(path);
    if (mtime !== null && mtime > since && mtime <= horizon) due.push({ path, mtime });
  }
  due.sort((a, b) => a.mtime - b.mtime);
  for (let i = 0; i < due.length; i++) {
    if (pace && !await pace()) {
      // Everything written before the first file not looked at has been.
      if (i > 0) markChecked(sessionsDir, wanted, due[i].mtime - 1);
      return repaired;
    }
    if (await repairIfCut(due[i].path, wanted)) repaired.push(due[i].path);
  }
  markChecked(sessionsDir, wanted, horizon);
  return repaired;
}

/** Stats made between two calls of a check's `pace`. */
const STATS_PER_PACE = 64;

/** Repairs `path` when it is cut, of project `wanted`, and no live writer holds it. */
async function repairIfCut(path: string, wanted: string): Promise<boolean> {
  if (whole(path)) return false;
  const head = readHeader(path);
  const project = head
    ? resolve(head.header.projectPath)
    : await summarize(path).then((x) => resolve(x.projectPath), () => undefined);
  if (project !== wanted) return false;
  // A file another process holds is being written, not cut.
  const lock = (() => {
    try {
      return tryLockSession(path);
    } catch {
      return { ok: false as const, holder: "" };
    }
  })();
  if (!lock.ok) return false;
  try {
    return await repairSession(path).catch(() => false);
  } finally {
    lock.lock.release();
  }
}

/** A file's modification time (ms), or null. */
function mtimeOf(path: string): number | null {
  try {
    return Deno.statSync(path).mtime?.getTime() ?? null;
  } catch {
    return null;
  }
}
