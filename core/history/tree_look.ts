/**
 * A look at the project for the undo watch around shell commands
 * (`command_undo.ts`): every folder and file that is not ignored, with what
 * tells a file changed (size, modification time, inode).
 *
 * @module
 */
import { realFs } from "../tools/fs_port.ts";
import { isInside } from "../tools/paths.ts";
import { walkTree } from "../tools/walk.ts";
import type { PackedCopy } from "./copy_pack.ts";

/** One path as last seen. */
export interface Seen {
  dir: boolean;
  size: number;
  mtime: number;
  ino: number | null;
  /** Where the kept copy is (files only; absent: not kept). */
  copy?: PackedCopy;
}

/** Whether a file looks the same in two looks. */
export function same(a: Seen, b: Seen): boolean {
  return a.size === b.size && a.mtime === b.mtime && a.ino === b.ino;
}

/** Where and how far {@link walkLook} looks. */
export interface WalkLookOptions {
  /** The project (for its ignore rules). */
  root: string;
  /** Folders left out with everything below them. */
  exclude: readonly string[];
  maxEntries: number;
  signal?: AbortSignal;
}

/**
 * The entries of `dir` (or, `recursive`, its whole subtree) that are not
 * ignored, with their state; `truncated` when the walk stopped at `maxEntries`.
 */
export async function walkLook(
  dir: string,
  recursive: boolean,
  o: WalkLookOptions,
): Promise<{ paths: Map<string, Seen>; truncated: boolean }> {
  const paths = new Map<string, Seen>();
  const summary = await walkTree(
    {
      fs: realFs,
      root: dir,
      cwd: o.root,
      recursive,
      signal: o.signal,
      maxEntries: o.maxEntries,
      skip: (abs) => o.exclude.some((x) => isInside(x, abs)),
    },
    (e) => {
      if (e.isSymlink) return;
      if (e.isDirectory) {
        paths.set(e.abs, { dir: true, size: 0, mtime: 0, ino: null });
        return;
      }
      if (!e.isFile) return;
      try {
        const info = Deno.lstatSync(e.abs);
        paths.set(e.abs, {
          dir: false,
          size: info.size,
          mtime: info.mtime?.getTime() ?? 0,
          ino: info.ino,
        });
      } catch {
        // gone while walking
      }
    },
  );
  return { paths, truncated: summary.truncated };
}

/** How a look differs from the one before (see {@link diffLooks}). */
export interface LookDiff {
  /** Folders created, parents first. */
  made: string[];
  /** Files created, or whose size, time or inode changed, with their state before (none: new). */
  files: { path: string; was?: Seen }[];
  /** Files removed, and paths that turned from a file into a folder or back (`swapped`). */
  gone: { path: string; was: Seen; swapped: boolean }[];
  /** Folders removed, deepest first. */
  goneDirs: string[];
}

/**
 * The differences between the look `before` and the one `now` tells, read
 * at `nowKeys` (paths that may be new or changed) and `beforeKeys` (paths
 * that may be gone): every path of both looks, or only those a patch changed.
 */
export function diffLooks(
  before: ReadonlyMap<string, Seen>,
  now: (path: string) => Seen | undefined,
  nowKeys: () => Iterable<string>,
  beforeKeys: Iterable<string>,
): LookDiff {
  const diff: LookDiff = { made: [], files: [], gone: [], goneDirs: [] };
  for (const path of nowKeys()) {
    if (now(path)?.dir && !before.has(path)) diff.made.push(path);
  }
  for (const path of nowKeys()) {
    const n = now(path);
    const b = before.get(path);
    if (!n || n.dir || b?.dir || (b && same(b, n))) continue; // a folder became a file: gone
    diff.files.push(b ? { path, was: b } : { path });
  }
  for (const path of beforeKeys) {
    const b = before.get(path);
    const n = now(path);
    if (b === undefined || (n !== undefined && n.dir === b.dir)) continue;
    if (n === undefined && b.dir) diff.goneDirs.push(path);
    else diff.gone.push({ path, was: b, swapped: n !== undefined });
  }
  diff.goneDirs.sort((a, b) => b.length - a.length);
  return diff;
}
