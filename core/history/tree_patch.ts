/**
 * Brings a look at the project up to date by listing only the folders that
 * changed (from {@link ./tree_watch.ts}) instead of walking the whole tree:
 * a changed folder is listed again (its files' sizes and times read anew),
 * entries gone from it are dropped with everything below them, and a folder
 * that is new is walked in full.
 *
 * @module
 */
import { sep } from "node:path";
import { isInside } from "../tools/paths.ts";

/** What the patch needs to know of one path. */
export interface Entry {
  dir: boolean;
}

/** How to look at the disk. */
export interface PatchOptions<S extends Entry> {
  root: string;
  /** Paths left out with everything below them. */
  skip(abs: string): boolean;
  /** The entries (not ignored) of `dir`: its children, or its whole subtree. */
  list(dir: string, recursive: boolean): Promise<Map<string, S>>;
}

/**
 * The look `base` as it is now, given every folder in which something
 * changed since it was taken. `base` is left as it was; entries of `base`
 * that did not change are shared, changed and new ones are new objects.
 * Folders come before their contents in the result's order.
 */
export async function patchLook<S extends Entry>(
  base: ReadonlyMap<string, S>,
  dirs: Iterable<string>,
  o: PatchOptions<S>,
): Promise<Map<string, S>> {
  const paths = new Map(base);
  let children: Map<string, string[]> | null = null;
  for (const dir of [...dirs].sort((a, b) => a.length - b.length)) {
    if (!isInside(o.root, dir) || o.skip(dir)) continue;
    if (dir !== o.root && paths.get(dir)?.dir !== true) continue; // ignored, gone, or walked
    children ??= childIndex(base);
    const listed = await o.list(dir, false);
    for (const old of children.get(dir) ?? []) {
      if (!listed.has(old)) removeTree(paths, old);
    }
    for (const [abs, now] of listed) {
      const prev = paths.get(abs);
      if (now.dir && prev?.dir) continue; // a known folder: listed when it changed itself
      if (prev) removeTree(paths, abs);
      paths.set(abs, now);
      if (now.dir) { for (const [below, e] of await o.list(abs, true)) paths.set(below, e); }
    }
  }
  return paths;
}

function childIndex(base: ReadonlyMap<string, unknown>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const abs of base.keys()) {
    const parent = abs.slice(0, abs.lastIndexOf(sep)) || sep;
    const list = index.get(parent);
    if (list) list.push(abs);
    else index.set(parent, [abs]);
  }
  return index;
}

function removeTree(paths: Map<string, Entry>, abs: string): void {
  const was = paths.get(abs);
  paths.delete(abs);
  if (!was?.dir) return;
  const prefix = abs + sep;
  for (const p of paths.keys()) if (p.startsWith(prefix)) paths.delete(p);
}
