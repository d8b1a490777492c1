/**
 * Temp files a killed process left behind: an atomic replace of a session
 * file writes `session_<ID>.json.tmp-<hex>` and renames it; a kill between
 * the two leaves the temp file. At the next start every such file whose
 * session no live process holds (session_lock.ts) is removed.
 *
 * @example
 * ```ts
 * const removed = await sweepStaleTemps(homePaths(home).sessions);
 * ```
 * @module
 */
import { join } from "node:path";
import { tryLockSession } from "./session_lock.ts";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TEMP = /^(session_.+\.json)\.tmp-[0-9a-f]+$/;

/** Removes stale session temp files under `sessionsDir`; returns their paths. Never throws. */
export async function sweepStaleTemps(sessionsDir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const day of await names(sessionsDir)) {
    if (!DAY.test(day)) continue;
    const dir = join(sessionsDir, day);
    for (const name of await names(dir)) {
      const m = TEMP.exec(name);
      if (m && await removeIfIdle(join(dir, m[1]), join(dir, name))) {
        removed.push(join(dir, name));
      }
    }
  }
  return removed;
}

/** Removes `temp` unless a live process holds the lock of `session` (it may be mid-replace). */
async function removeIfIdle(session: string, temp: string): Promise<boolean> {
  let attempt;
  try {
    attempt = tryLockSession(session);
  } catch {
    return false;
  }
  if (!attempt.ok) return false;
  try {
    await Deno.remove(temp);
    return true;
  } catch {
    return false;
  } finally {
    attempt.lock.release();
  }
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) out.push(e.name);
  } catch {
    // missing or unreadable: nothing to sweep
  }
  return out;
}
