/**
 * Brings a look at the project up to date by listing only the folders that
 * changed (from {@link ./tree_watch.ts}) instead of walking the whole tree:
 * a changed folder is listed again (its files' sizes and times read anew),
 * entries gone from it are dropped with everything below them, and a folder
 * that is new is walked in full. The result is the changes alone, so the work
 * grows with what changed, not with the size of the project (apart from one
 * pass over the look's paths, without copying them, to find the folders'
 * former entries, and one more per folder removed).
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
 * How the look `base` differs now, given every folder in which something
 * changed since it was taken: each path set anew (a new object; every entry
 * of a folder listed again is) or removed (null), folders before their
 * contents. `base` is only read; {@link applyPatch} brings it up to date.
 */
export async function patchLook<S extends Entry>(
  base: ReadonlyMap<string, S>,
  dirs: Iterable<string>,
  o: PatchOptions<S>,
): Promise<Map<string, S | null>> {
  const changes = new Map<string, S | null>();
  const get = (abs: string) => changes.has(abs) ? changes.get(abs) ?? undefined : base.get(abs);
  const sorted = [...dirs].sort((a, b) => a.length - b.length);
  let children: Map<string, string[]> | null = null;
  for (const dir of sorted) {
    if (!isInside(o.root, dir) || o.skip(dir)) continue;
    if (dir !== o.root && get(dir)?.dir !== true) continue; // ignored, gone, or walked
    children ??= childrenOf(base, sorted);
    const listed = await o.list(dir, false);
    for (const old of children.get(dir) ?? []) {
      if (!listed.has(old)) removeTree(base, changes, old);
    }
    for (const [abs, now] of listed) {
      const prev = get(abs);
      if (now.dir && prev?.dir) continue; // a known folder: listed when it changed itself
      if (prev) removeTree(base, changes, abs);
      changes.set(abs, now);
      if (now.dir) { for (const [below, e] of await o.list(abs, true)) changes.set(below, e); }
    }
  }
  return changes;
}

/** Brings `paths` up to date with `changes` (from {@link patchLook}), in place. */
export function applyPatch<S>(paths: Map<string, S>, changes: ReadonlyMap<string, S | null>): void {
  for (const [abs, now] of changes) {
    if (now === null) paths.delete(abs);
    else paths.set(abs, now);
  }
}

/** The entries of `base` directly inside each of `dirs`, by folder (one pass, nothing copied). */
function childrenOf(
  base: ReadonlyMap<string, unknown>,
  dirs: readonly string[],
): Map<string, string[]> {
  const byLength = new Map<number, string[]>();
  for (const d of dirs) byLength.set(d.length, [...byLength.get(d.length) ?? [], d]);
  const out = new Map<string, string[]>();
  for (const abs of base.keys()) {
    const cut = abs.lastIndexOf(sep);
    // The parent is what precedes the last separator; "/" for a path such as "/a".
    for (const d of byLength.get(cut === 0 ? 1 : cut) ?? []) {
      if (!abs.startsWith(d)) continue;
      const list = out.get(d);
      if (list) list.push(abs);
      else out.set(d, [abs]);
    }
  }
  return out;
}

/** Marks `abs` removed, with everything below it when it is a folder. */
function removeTree<S extends Entry>(
  base: ReadonlyMap<string, S>,
  changes: Map<string, S | null>,
  abs: string,
): void {
  const was = changes.has(abs) ? changes.get(abs) : base.get(abs);
  changes.set(abs, null);
  if (!was?.dir) return;
  const prefix = abs + sep;
  for (const p of base.keys()) if (p.startsWith(prefix)) changes.set(p, null);
  for (const p of changes.keys()) if (p.startsWith(prefix)) changes.set(p, null);
}
