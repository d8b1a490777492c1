/**
 * Undo: puts back what a session's changes replaced, newest first, from its
 * backup store. A path whose current state is neither what the change left
 * (someone changed it since) nor what it was before is left alone with a
 * reason, unless `force`.
 *
 * Without `all`, the last change group (one tool call) that still has
 * something to undo is reverted; repeated calls walk back one group at a
 * time. Reverted changes are marked in the manifest, so they are not undone
 * twice.
 *
 * @example
 * ```ts
 * const report = await undoChanges(store, { last: true });
 * io.out(formatUndoReport(report, cwd));
 * ```
 * @module
 */
import { dirname, isAbsolute, relative } from "node:path";
import type { FsPort } from "../../interfaces/tool.ts";
import { realFs } from "../tools/fs_port.ts";
import { stateOf } from "./backup_fs.ts";
import { type BackupEntry, type BackupStore, DIR_STATE } from "./backups.ts";

/** Options of {@link undoChanges}. */
export interface UndoOptions {
  /** Revert the last change group (the default). */
  last?: boolean;
  /** Revert every change of the session, newest first. */
  all?: boolean;
  /** Revert even paths changed since by someone else. */
  force?: boolean;
  /** The disk to restore on (the real one by default). */
  fs?: FsPort;
}

/** What happened to one change. */
export interface UndoItem {
  id: string;
  path: string;
  group: number;
  label?: string;
  /** `unchanged`: the path was already as before the change. */
  action: "restored" | "recreated" | "deleted" | "unchanged" | "skipped";
  /** Why a change was skipped. */
  reason?: string;
}

/** The outcome of {@link undoChanges}, newest change first. */
export interface UndoReport {
  reverted: UndoItem[];
  skipped: UndoItem[];
}

/** Reverts the last change group (or all changes) of `store`. */
export async function undoChanges(store: BackupStore, opts: UndoOptions = {}): Promise<UndoReport> {
  const fs = opts.fs ?? realFs;
  const pending = store.entries().filter((e) => !e.undone);
  const lastGroup = Math.max(...pending.map((e) => e.group));
  const targets = opts.all ? pending : pending.filter((e) => e.group === lastGroup);
  const report: UndoReport = { reverted: [], skipped: [] };
  for (const entry of targets.reverse()) {
    const item = await revertOne(fs, store, entry, opts.force === true);
    if (item.action === "skipped") {
      report.skipped.push(item);
      continue;
    }
    await store.patch(entry.id, { undone: true });
    report.reverted.push(item);
  }
  return report;
}

async function revertOne(
  fs: FsPort,
  store: BackupStore,
  e: BackupEntry,
  force: boolean,
): Promise<UndoItem> {
  const item = { id: e.id, path: e.path, group: e.group, label: e.label };
  const skip = (reason: string): UndoItem => ({ ...item, action: "skipped", reason });
  try {
    const now = await stateOf(fs, e.path);
    if (now === e.beforeHash) return { ...item, action: "unchanged" };
    if (now !== e.afterHash && !force) return skip(changedReason(now));
    if (e.beforeHash === null) {
      const problem = await removeCreated(fs, e.path, now);
      return problem ? skip(problem) : { ...item, action: "deleted" };
    }
    if (e.beforeHash === DIR_STATE) {
      if (now !== null) await fs.remove(e.path);
      await fs.mkdir(e.path, { recursive: true });
      return { ...item, action: "recreated" };
    }
    if (now === DIR_STATE) return skip("it is a directory now; left alone");
    await fs.mkdir(dirname(e.path), { recursive: true });
    await fs.writeFile(e.path, await store.readBackup(e));
    return { ...item, action: now === null ? "recreated" : "restored" };
  } catch (error) {
    return skip(`cannot revert it: ${(error as Error).message}`);
  }
}

function changedReason(now: string | null): string {
  const what = now === null ? "deleted" : now === DIR_STATE ? "replaced by a directory" : "changed";
  return `it was ${what} since minoc changed it; left alone (use --force to revert it anyway)`;
}

/** Removes a file or empty directory the change created; returns a problem, if any. */
async function removeCreated(fs: FsPort, path: string, now: string | null): Promise<string | null> {
  if (now === DIR_STATE && (await fs.readDir(path)).length > 0) {
    return "the directory minoc created is not empty; left alone";
  }
  await fs.remove(path);
  return null;
}

/**
 * Human-readable lines for a report; paths inside `cwd` are shown relative to
 * it. Changes that needed nothing (`unchanged`, e.g. a folder already
 * recreated with its files) are counted but not listed.
 */
export function formatUndoReport(report: UndoReport, cwd: string): string {
  const { reverted, skipped } = report;
  if (reverted.length === 0 && skipped.length === 0) return "Nothing to undo\n";
  const done = reverted.filter((i) => i.action !== "unchanged");
  const labels = [...new Set([...reverted, ...skipped].map((i) => i.label ?? `change ${i.id}`))];
  const lines = [
    labels.length > 3 ? `Undo of ${labels.length} tool calls:` : `Undo of ${labels.join(", ")}:`,
  ];
  for (const i of done) lines.push(`  ${i.action.padEnd(9)} ${shown(cwd, i.path)}`);
  for (const i of skipped) lines.push(`  skipped   ${shown(cwd, i.path)}: ${i.reason}`);
  const n = done.length;
  const already = reverted.length - n;
  lines.push(
    `Reverted ${n} change${n === 1 ? "" : "s"}` +
      (already ? `, ${already} already as before` : "") +
      (skipped.length ? `, left ${skipped.length} alone` : ""),
  );
  return lines.join("\n") + "\n";
}

function shown(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}
