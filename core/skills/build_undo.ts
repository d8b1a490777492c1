/**
 * Makes a skill script's changes under `build/` undoable like any edit: the
 * files there are kept in memory before the run (up to 32 MB), and after it
 * every folder created and every file created, changed or removed is
 * recorded in the session's backups, in the change group of the tool call.
 * `/undo` and `minoc undo` then put `build/` back as it was.
 *
 * @example
 * ```ts
 * const kept = await keepBuild(build);            // null: too large to keep
 * await runSandboxed(...);
 * if (kept) await recordBuild(kept, build, backups);
 * ```
 * @module
 */
import { join } from "node:path";
import { type BackupStore, DIR_STATE, sameBytes, sha256 } from "../history/backups.ts";

/** What `build/` held before a run. */
export interface KeptBuild {
  /** Whether `build/` itself existed. */
  existed: boolean;
  files: Map<string, Uint8Array>;
  dirs: Set<string>;
}

/** The most `build/` may hold for a run's changes to be undoable. */
export const MAX_KEPT_BYTES = 32 * 1024 * 1024;

/** Reads `build/` (missing: empty); null when its files pass `maxBytes`. */
export async function keepBuild(
  build: string,
  maxBytes = MAX_KEPT_BYTES,
): Promise<KeptBuild | null> {
  const existed = await Deno.stat(build).then((i) => i.isDirectory, () => false);
  const kept: KeptBuild = { existed, files: new Map(), dirs: new Set() };
  let bytes = 0;
  for (const entry of await walk(build)) {
    if (entry.dir) {
      kept.dirs.add(entry.path);
      continue;
    }
    bytes += entry.size;
    if (bytes > maxBytes) return null;
    const content = await Deno.readFile(entry.path).catch(() => null);
    if (content) kept.files.set(entry.path, content);
  }
  return kept;
}

/** Records what changed in `build/` since `kept`; returns how many changes. */
export async function recordBuild(
  kept: KeptBuild,
  build: string,
  store: BackupStore,
): Promise<number> {
  const now = await walk(build);
  let changes = 0;
  if (!kept.existed && await Deno.stat(build).then((i) => i.isDirectory, () => false)) {
    await store.recordChange(build, { kind: "absent" }, DIR_STATE);
    changes++;
  }
  // Folders first, parents before children: undo goes newest first, so files go before folders.
  for (const e of now) {
    if (e.dir && !kept.dirs.has(e.path)) {
      await store.recordChange(e.path, { kind: "absent" }, DIR_STATE);
      changes++;
    }
  }
  const seen = new Set<string>();
  for (const e of now) {
    if (e.dir) continue;
    seen.add(e.path);
    const content = await Deno.readFile(e.path).catch(() => null);
    if (content === null) continue;
    const before = kept.files.get(e.path);
    if (before !== undefined && sameBytes(before, content)) continue;
    const prior = before === undefined
      ? { kind: "absent" as const }
      : { kind: "file" as const, content: before };
    await store.recordChange(e.path, prior, await sha256(content));
    changes++;
  }
  for (const [path, content] of kept.files) {
    if (seen.has(path)) continue;
    await store.recordChange(path, { kind: "file", content }, null);
    changes++;
  }
  return changes;
}

interface Entry {
  path: string;
  dir: boolean;
  size: number;
}

/** Every folder and file below `root` (symbolic links left out), parents first. */
async function walk(root: string): Promise<Entry[]> {
  const out: Entry[] = [];
  const visit = async (dir: string) => {
    let names: Deno.DirEntry[];
    try {
      names = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    names.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const e of names) {
      const path = join(dir, e.name);
      if (e.isSymlink) continue;
      if (e.isDirectory) {
        out.push({ path, dir: true, size: 0 });
        await visit(path);
      } else if (e.isFile) {
        const info = await Deno.lstat(path).catch(() => null);
        if (info) out.push({ path, dir: false, size: info.size });
      }
    }
  };
  await visit(root);
  return out;
}
