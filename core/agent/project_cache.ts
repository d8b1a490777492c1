/**
 * The project analysis of the last session, kept so that a session in the
 * same folder does not walk its tree again before the first request (a walk
 * of 20,000 files takes ~130–240 ms, of 50,000 ~250–370).
 *
 * A kept analysis comes with its footprint: every folder the walk listed
 * (its modification time changes when an entry is added, removed or
 * renamed), every file it read (`.gitignore`s, the root's files, which hold
 * the manifests, the instructions) with time and size, and minoc's own entry
 * file (a new minoc may describe projects differently). It is used only when
 * each of these is as it was, checked with one `stat` each. A time within
 * {@link RACY_MS} of the analysis is not trusted (a file system may keep
 * times in whole seconds, or a folder could change twice within one tick of
 * the clock): such an analysis is not kept. The facts are kept, not the
 * text: the section is rendered again from them, as a new one would be.
 *
 * @example
 * ```ts
 * const kept = loadKept(cacheDir, root, options);
 * const facts = kept ?? walkAndRecord(...);
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SectionFacts } from "./project_render.ts";
import { readTextFileSync } from "../tools/bounded_read.ts";
import { exists } from "../tools/fs_port.ts";

/** Bump when {@link SectionFacts} or the walk change what a kept analysis means. */
const FORMAT = 1;
/** Times this close to the analysis are not trusted (see the module notes). */
export const RACY_MS = 2_000;

/**
 * A path the analysis depended on: modification time and size; -1, -1 when
 * absent; for a path whose presence alone counts, 0 or -1 and {@link PRESENCE}.
 */
type Mark = [path: string, mtimeMs: number, size: number];

/** The size of a mark that notes only whether its path is there. */
const PRESENCE = -3;

/** What one analysis depended on, as it was read. */
export class Footprint {
  readonly marks: Mark[] = [];
  /** When the analysis began (times at or after {@link RACY_MS} before it are not trusted). */
  readonly began = Date.now();

  /** Notes `path` as it is now (absent included). */
  add(path: string): void {
    this.marks.push(markOf(path));
  }

  /** Notes only whether `path` is there (a `.git` folder changes with every git command). */
  presence(path: string): void {
    this.marks.push(presenceOf(path));
  }
}

/** What is kept: the facts and what the section was fitted with. */
export interface KeptAnalysis {
  facts: SectionFacts;
  empty: boolean;
  instructions?: string;
}

interface CacheFile extends KeptAnalysis {
  format: number;
  root: string;
  /** The options the analysis was made with, as a string. */
  options: string;
  marks: Mark[];
}

/** The kept analysis of `root` made with `options`, when nothing it read has changed; else null. */
export function loadKept(dir: string, root: string, options: string): KeptAnalysis | null {
  let file: CacheFile;
  try {
    file = JSON.parse(readTextFileSync(cachePath(dir, root)));
  } catch {
    return null;
  }
  if (file.format !== FORMAT || file.root !== root || file.options !== options) return null;
  if (!Array.isArray(file.marks)) return null;
  for (const [path, mtime, size] of file.marks) {
    const [, m, s] = size === PRESENCE ? presenceOf(path) : markOf(path);
    if (m !== mtime || s !== size) return null;
  }
  return { facts: file.facts, empty: file.empty, instructions: file.instructions };
}

/**
 * Keeps `analysis` of `root` for the next session, unless a time in its
 * footprint is too recent to be trusted. Never throws: a cache that cannot be
 * written only costs the next session its walk.
 */
export function keep(
  dir: string,
  root: string,
  options: string,
  footprint: Footprint,
  analysis: KeptAnalysis,
): void {
  const entry = entryFile();
  const marks = entry === "" ? footprint.marks : [...footprint.marks, markOf(entry)];
  if (marks.some(([, mtime]) => mtime >= footprint.began - RACY_MS)) return;
  const file: CacheFile = { format: FORMAT, root, options, marks, ...analysis };
  const path = cachePath(dir, root);
  const temp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  try {
    Deno.mkdirSync(dirname(path), { recursive: true });
    Deno.writeTextFileSync(temp, JSON.stringify(file));
    Deno.renameSync(temp, path);
  } catch {
    try {
      Deno.removeSync(temp);
    } catch {
      // never written
    }
  }
}

/** The cache file of `root` in `dir` (a hash of the path names it; the file holds the path). */
export function cachePath(dir: string, root: string): string {
  return join(dir, `project-${hash(root)}.json`);
}

function presenceOf(path: string): Mark {
  try {
    return [path, exists(path) ? 0 : -1, PRESENCE];
  } catch {
    return [path, -2, PRESENCE];
  }
}

function markOf(path: string): Mark {
  try {
    if (!exists(path)) return [path, -1, -1];
    const info = Deno.statSync(path);
    return [path, info.mtime?.getTime() ?? -1, info.isDirectory ? -1 : info.size];
  } catch {
    return [path, -2, -2];
  }
}

/** The file minoc runs from (a new build is a new file), or "" when it is not a file. */
function entryFile(): string {
  try {
    const main = Deno.mainModule;
    if (Deno.build.standalone) return Deno.execPath();
    return main.startsWith("file:") ? fileURLToPath(main) : "";
  } catch {
    return "";
  }
}

/** FNV-1a over the path's UTF-16 units, as 8 hex digits (the file holds the path itself). */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}
