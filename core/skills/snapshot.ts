/**
 * File-tree snapshots (path → size and modification time) taken before and
 * after a skill script runs: what it produced under `build/`, and what it
 * created or changed anywhere else it could be seen.
 *
 * @example
 * ```ts
 * const before = await snapshot(projectDir, { skip: [buildDir] });
 * // ... run ...
 * const diff = diffSnapshots(before, await snapshot(projectDir, { skip: [buildDir] }));
 * ```
 * @module
 */
import { join } from "node:path";

/** Absolute path → `dir`, or `<size>:<mtime>` for a file. */
export interface Snapshot {
  entries: Map<string, string>;
  /** True when the walk stopped at the entry limit. */
  partial: boolean;
}

/** How a snapshot is taken. */
export interface SnapshotOptions {
  /** Absolute paths whose subtrees are not walked. */
  skip?: readonly string[];
  /** Folder names never walked into (default `.git`, `node_modules`). */
  skipNames?: readonly string[];
  /** Entries at most (default 20,000). */
  limit?: number;
}

/** What changed between two snapshots. */
export interface SnapshotDiff {
  created: string[];
  modified: string[];
  /** Folders that did not exist before. */
  createdDirs: string[];
}

const SKIP_NAMES = [".git", "node_modules"];

/** Walks `root` (missing: empty) and records every file and folder. */
export async function snapshot(root: string, o: SnapshotOptions = {}): Promise<Snapshot> {
  const entries = new Map<string, string>();
  const skip = new Set(o.skip ?? []);
  const names = new Set(o.skipNames ?? SKIP_NAMES);
  const limit = o.limit ?? 20_000;
  const state = { partial: false };
  const walk = async (dir: string): Promise<void> => {
    let list: Deno.DirEntry[];
    try {
      list = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    for (const e of list) {
      if (entries.size >= limit) {
        state.partial = true;
        return;
      }
      const abs = join(dir, e.name);
      if (skip.has(abs)) continue;
      if (e.isDirectory) {
        if (names.has(e.name)) continue;
        entries.set(abs, "dir");
        await walk(abs);
      } else {
        const info = await Deno.lstat(abs).catch(() => null);
        if (info) entries.set(abs, `${info.size}:${info.mtime?.getTime() ?? 0}`);
      }
    }
  };
  await walk(root);
  return { entries, partial: state.partial };
}

/** Files created or modified, and folders created, from `before` to `after`. */
export function diffSnapshots(before: Snapshot, after: Snapshot): SnapshotDiff {
  const diff: SnapshotDiff = { created: [], modified: [], createdDirs: [] };
  for (const [path, sig] of after.entries) {
    const old = before.entries.get(path);
    if (sig === "dir") {
      if (old === undefined) diff.createdDirs.push(path);
    } else if (old === undefined) diff.created.push(path);
    else if (old !== sig) diff.modified.push(path);
  }
  diff.created.sort();
  diff.modified.sort();
  diff.createdDirs.sort();
  return diff;
}

/** Removes created files, then created folders that are left empty (deepest first). */
export async function undoCreated(diff: SnapshotDiff): Promise<string[]> {
  const removed: string[] = [];
  for (const path of diff.created) {
    try {
      await Deno.remove(path);
      removed.push(path);
    } catch {
      // gone already or not removable: reported as created anyway
    }
  }
  for (const dir of [...diff.createdDirs].sort((a, b) => b.length - a.length)) {
    await Deno.remove(dir).catch(() => {});
  }
  return removed;
}
