/**
 * Explicit deletion of old sessions (`minoc history prune`): whole session
 * files whose start is older than a cut-off, with their backups. Nothing here
 * runs on its own.
 *
 * @example
 * ```ts
 * const ms = parseAge("30d"); // 2_592_000_000
 * const old = await findPrunable(paths.sessions, paths.backups, new Date(Date.now() - ms!));
 * await deletePrunable(old);
 * ```
 * @module
 */
import { isSessionLocked } from "./session_lock.ts";
import { dirname, join, resolve } from "node:path";
import { listSessions } from "./store.ts";

const DAY_MS = 86_400_000;

/** A session that prune would delete. */
export interface PruneCandidate {
  id: string;
  /** The session file. */
  path: string;
  timestamp: string;
  projectPath: string;
  /** Its backup folder, when there is one. */
  backupDir: string | null;
  /** Bytes of the session file and its backups. */
  bytes: number;
}

/** `30d` or `4w` in milliseconds; null for anything else. */
export function parseAge(text: string): number | null {
  const m = /^(\d+)\s*([dw])$/i.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  return n * (m[2].toLowerCase() === "w" ? 7 : 1) * DAY_MS;
}

/** Sessions started before `cutoff` (optionally of one project), oldest first. */
export async function findPrunable(
  sessionsDir: string,
  backupsDir: string,
  cutoff: Date,
  projectPath?: string,
): Promise<PruneCandidate[]> {
  const sessions = await listSessions(sessionsDir, projectPath ? { projectPath } : {});
  const out: PruneCandidate[] = [];
  for (const s of sessions.reverse()) {
    if (!(Date.parse(s.timestamp) < cutoff.getTime())) continue;
    // A session a running minoc writes is not pruned under it.
    if (isSessionLocked(s.path)) continue;
    const backupDir = join(backupsDir, s.id);
    const backupBytes = await treeBytes(backupDir);
    out.push({
      id: s.id,
      path: s.path,
      timestamp: s.timestamp,
      projectPath: s.projectPath,
      backupDir: backupBytes === null ? null : backupDir,
      bytes: (await treeBytes(s.path) ?? 0) + (backupBytes ?? 0),
    });
  }
  return out;
}

/** Deletes the candidates' files and backups, then day folders left empty. */
export async function deletePrunable(candidates: readonly PruneCandidate[]): Promise<void> {
  const days = new Set<string>();
  for (const c of candidates) {
    await Deno.remove(c.path).catch(ignoreMissing);
    if (c.backupDir) await Deno.remove(c.backupDir, { recursive: true }).catch(ignoreMissing);
    days.add(resolve(dirname(c.path)));
  }
  for (const day of days) {
    // Fails when something is left in it, which is what we want.
    await Deno.remove(day).catch(() => {});
  }
}

/** Total bytes of a file or a folder's files; null when it does not exist. */
async function treeBytes(path: string): Promise<number | null> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  if (!info.isDirectory) return info.size;
  let total = 0;
  for await (const entry of Deno.readDir(path)) {
    total += (await treeBytes(join(path, entry.name))) ?? 0;
  }
  return total;
}

function ignoreMissing(error: unknown): void {
  if (!(error instanceof Deno.errors.NotFound)) throw error;
}
