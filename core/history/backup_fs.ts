/**
 * An `FsPort` decorator that saves what a change destroys before it happens,
 * so undo can put it back. Tools stay unaware: they get this port instead of
 * the real disk.
 *
 * - `writeFile`: the file's previous content (or its absence), once per path
 *   and change group; later writes in the group update the after-hash.
 * - `remove`: the file; for a directory, the directory and everything below
 *   it (symbolic links inside it are not saved).
 * - `mkdir`: every directory it is about to create, so undo can remove them
 *   again when they are empty.
 *
 * @example
 * ```ts
 * const fs = backingUpFs(realFs, store);
 * store.beginGroup("delete_file old");
 * await fs.remove("/p/old", { recursive: true });
 * store.endGroup(); // ["c4", "c5", "c6"]
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import type { FsPort } from "../../interfaces/tool.ts";
import { type BackupStore, DIR_STATE, type PriorState, sha256 } from "./backups.ts";

/** Wraps `inner` so that every change is backed up in `store` first. */
export function backingUpFs(inner: FsPort, store: BackupStore): FsPort {
  return {
    // Reads pass through unchanged, so tools can still see the real disk.
    readFile: inner.readFile,
    stat: inner.stat,
    readDir: inner.readDir,
    async writeFile(path, data) {
      const id = await before(inner, store, path, await sha256(data));
      try {
        await inner.writeFile(path, data);
      } catch (error) {
        if (id !== undefined) await store.patch(id, { afterHash: await stateOf(inner, path) });
        throw error;
      }
    },
    async mkdir(path, options) {
      for (const dir of await missingDirs(inner, path, options?.recursive === true)) {
        await before(inner, store, dir, DIR_STATE);
      }
      await inner.mkdir(path, options);
    },
    async remove(path, options) {
      const info = await inner.stat(path);
      if (info !== null && !info.isSymlink) {
        if (info.isDirectory && options?.recursive === true) await saveTree(inner, store, path);
        else await before(inner, store, path, null);
      }
      await inner.remove(path, options);
    },
  };
}

/** The state of `path` now: a content hash, `dir`, or null when absent. */
export async function stateOf(fs: FsPort, path: string): Promise<string | null> {
  const info = await fs.stat(path);
  if (info === null) return null;
  if (info.isDirectory) return DIR_STATE;
  return await sha256(await fs.readFile(path));
}

/**
 * Records `path`'s state before a change that leaves it in `after`; a path
 * this group already saved only gets its after-state updated. Returns the
 * change id, or undefined when nothing can be saved (e.g. a symbolic link to
 * a directory).
 */
async function before(
  fs: FsPort,
  store: BackupStore,
  path: string,
  after: string | null,
): Promise<string | undefined> {
  const known = store.changeIn(path);
  if (known !== undefined) {
    await store.patch(known, { afterHash: after });
    return known;
  }
  const prior = await priorState(fs, path);
  if (prior === undefined) return undefined;
  return await store.recordChange(path, prior, after);
}

async function priorState(fs: FsPort, path: string): Promise<PriorState | undefined> {
  const info = await fs.stat(path);
  if (info === null) return { kind: "absent" };
  if (info.isDirectory) return info.isSymlink ? undefined : { kind: "dir" };
  return { kind: "file", content: await fs.readFile(path) };
}

/** The directory, then everything below it, parents before children. */
async function saveTree(fs: FsPort, store: BackupStore, dir: string): Promise<void> {
  await before(fs, store, dir, null);
  const entries = await fs.readDir(dir);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isSymlink) continue;
    if (entry.isDirectory) await saveTree(fs, store, path);
    else if (entry.isFile) await before(fs, store, path, null);
  }
}

/** The directories `mkdir` would create, outermost first. */
async function missingDirs(fs: FsPort, path: string, recursive: boolean): Promise<string[]> {
  const missing: string[] = [];
  let p = path;
  while ((await fs.stat(p)) === null) {
    missing.unshift(p);
    const parent = dirname(p);
    if (!recursive || parent === p) break;
    p = parent;
  }
  return missing;
}
