/**
 * One writer per session file: an exclusive advisory lock (`flock` on Unix,
 * `LockFileEx` on Windows) on a sidecar `session_<ID>.json.lock`, held from
 * open to close. The session file itself is replaced by rename now and then,
 * so it cannot carry the lock. The kernel drops the lock when the process
 * ends in any way (`kill -9` included), so a crash never leaves a session
 * locked; the sidecar is removed on close.
 *
 * @example
 * ```ts
 * const lock = tryLockSession(path);
 * if (!lock.ok) throw new SessionBusyError(path, lock.holder);
 * // … write the session …
 * lock.lock.release();
 * ```
 * @module
 */

/** A held session lock. */
export interface SessionLock {
  /** Lets go of the lock and removes the sidecar. Safe to call twice. */
  release(): void;
}

/** The outcome of {@link tryLockSession}: the lock, or who holds it. */
export type LockAttempt =
  | { ok: true; lock: SessionLock }
  | { ok: false; holder: string };

/** Thrown when another process is writing the session. */
export class SessionBusyError extends Error {
  constructor(readonly path: string, readonly holder: string) {
    super(`Session "${path}" is in use by another minoc process (${holder})`);
    this.name = "SessionBusyError";
  }
}

/** The sidecar that carries the lock of `sessionPath`. */
export function lockPathOf(sessionPath: string): string {
  return `${sessionPath}.lock`;
}

/** Takes the lock of `sessionPath` without waiting. */
export function tryLockSession(sessionPath: string): LockAttempt {
  const path = lockPathOf(sessionPath);
  // A holder may remove the sidecar between our open and lock: then try again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const file = Deno.openSync(path, { read: true, write: true, create: true });
    if (!file.tryLockSync(true)) {
      file.close();
      return { ok: false, holder: holderOf(path) };
    }
    if (!sameFile(file, path)) {
      file.close();
      continue;
    }
    writeHolder(file);
    return { ok: true, lock: heldLock(file, path) };
  }
  return { ok: false, holder: "a process that keeps replacing its lock file" };
}

/** Whether some process holds the lock of `sessionPath` now. */
export function isSessionLocked(sessionPath: string): boolean {
  const path = lockPathOf(sessionPath);
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true, write: true });
  } catch {
    return false;
  }
  try {
    if (!file.tryLockSync(true)) return true;
    file.unlockSync();
    return false;
  } finally {
    file.close();
  }
}

/** Who holds the lock, as its sidecar says ("pid 123 on host"). */
export function holderOf(lockPath: string): string {
  try {
    const text = Deno.readTextFileSync(lockPath).trim();
    const m = /^pid (\d+)(?: on (.+))?$/.exec(text);
    if (m) return `pid ${m[1]}${m[2] ? ` on ${m[2]}` : ""}`;
  } catch {
    // Windows forbids reading a locked range; the pid stays unknown
  }
  return "pid unknown";
}

function heldLock(file: Deno.FsFile, path: string): SessionLock {
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      // Removed while still held, so nobody can lock the old file and think it is current.
      try {
        Deno.removeSync(path);
      } catch {
        // gone already, or Windows keeps it: the next opener checks
      }
      file.close();
    },
  };
}

function sameFile(file: Deno.FsFile, path: string): boolean {
  try {
    const open = file.statSync();
    const named = Deno.statSync(path);
    return open.ino === null || open.ino === named.ino;
  } catch {
    return false;
  }
}

function writeHolder(file: Deno.FsFile): void {
  let host = "";
  try {
    host = ` on ${Deno.hostname()}`;
  } catch {
    // no --allow-sys: the pid alone
  }
  try {
    const text = `pid ${Deno.pid}${host}\n`;
    file.truncateSync(0);
    file.writeSync(new TextEncoder().encode(text));
  } catch {
    // the holder's name is only for messages
  }
}
