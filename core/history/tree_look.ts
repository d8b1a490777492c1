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
