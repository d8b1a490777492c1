/**
 * The fast part of the project analysis: one synchronous walk of the working
 * directory that honours `.gitignore` (through core/tools/gitignore.ts), skips
 * hidden entries and build output, and keeps a folder tree with recursive
 * file counts and extension counts. Names below `keepDepth` are not kept,
 * only counted, so memory stays small on huge repositories; a time and entry
 * budget stops the walk (the result then says it is partial).
 *
 * @example
 * ```ts
 * const scan = scanTree("/repo");
 * console.log(scan.root.files, scan.extensions.get(".ts"));
 * ```
 * @module
 */
import { join } from "node:path";
import {
  ALWAYS_SKIPPED,
  isIgnored,
  narrowChain,
  parseRules,
  readIgnoreSync,
  type RuleChain,
} from "../tools/gitignore.ts";

/** Told each folder the walk lists and each file it reads (the footprint of project_cache.ts). */
export interface PathNoter {
  add(path: string): void;
}

/** A folder of the scanned tree. */
export interface DirNode {
  name: string;
  /** Path from the root, `/`-separated; `""` for the root. */
  rel: string;
  depth: number;
  /** Subfolders, sorted by name (only above `keepDepth`). */
  dirs: DirNode[];
  /** File names directly inside, sorted (only above `keepDepth`). */
  fileNames: string[];
  /** Files directly inside. */
  ownFiles: number;
  /** Files at any depth below. */
  files: number;
  /** Folders at any depth below. */
  folders: number;
  /** Build output or the like: counted as a folder, never entered. */
  skipped?: string;
}

/** What one walk found. */
export interface TreeScan {
  root: DirNode;
  /** Extension (lower case, with the dot; `""` for none) → files. */
  extensions: Map<string, number>;
  /** True when the time or entry budget stopped the walk. */
  partial: boolean;
  ms: number;
}

/** Limits of {@link scanTree}. */
export interface ScanOptions {
  /** Keep names of folders and files down to this depth (default 4). */
  keepDepth?: number;
  /** Stop after this many milliseconds (default 1,000). */
  timeBudgetMs?: number;
  /** Stop after this many entries (default 200,000). */
  maxEntries?: number;
}

/** Folders of build output and caches: listed with a note, never entered. */
const GENERATED: Record<string, string> = {
  target: "build output",
  dist: "build output",
  build: "build output",
  out: "build output",
  coverage: "coverage report",
  __pycache__: "cache",
  venv: "virtual environment",
  vendor: "vendored code",
};

interface State {
  keepDepth: number;
  deadline: number;
  maxEntries: number;
  entries: number;
  extensions: Map<string, number>;
  partial: boolean;
  /** Notes each folder listed and each file read (project_cache.ts). */
  footprint?: PathNoter;
}

/**
 * Walks `rootDir` (absolute) and returns its tree; never throws for unreadable
 * subfolders. `above` holds the `.gitignore` rules of the folders above it
 * (`ancestorRules` of core/tools/gitignore.ts).
 */
export function scanTree(
  rootDir: string,
  options: ScanOptions = {},
  above: RuleChain = [],
  footprint?: PathNoter,
): TreeScan {
  const start = performance.now();
  const s: State = {
    keepDepth: options.keepDepth ?? 4,
    deadline: start + (options.timeBudgetMs ?? 1_000),
    maxEntries: options.maxEntries ?? 200_000,
    entries: 0,
    extensions: new Map(),
    partial: false,
    footprint,
  };
  const root = node("", "", 0);
  walk(s, rootDir, root, above);
  return {
    root,
    extensions: s.extensions,
    partial: s.partial,
    ms: performance.now() - start,
  };
}

function node(name: string, rel: string, depth: number): DirNode {
  return { name, rel, depth, dirs: [], fileNames: [], ownFiles: 0, files: 0, folders: 0 };
}

function walk(s: State, abs: string, dir: DirNode, inherited: RuleChain): void {
  let entries: Deno.DirEntry[];
  // Noted before it is listed: a change made after the listing changes the time noted.
  s.footprint?.add(abs);
  try {
    entries = Array.from(Deno.readDirSync(abs));
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let chain = inherited;
  if (entries.some((e) => e.name === ".gitignore" && e.isFile)) {
    s.footprint?.add(join(abs, ".gitignore"));
    const text = readIgnoreSync(abs);
    if (text !== null) chain = [...chain, parseRules(abs, text)];
  }
  const keep = dir.depth < s.keepDepth;
  for (const e of entries) {
    if (e.name.startsWith(".") || ALWAYS_SKIPPED.has(e.name)) continue;
    if (++s.entries > s.maxEntries || (s.entries % 256 === 0 && performance.now() > s.deadline)) {
      s.partial = true;
      break;
    }
    const path = join(abs, e.name);
    if (chain.length > 0 && isIgnored(chain, path, e.name, e.isDirectory)) continue;
    if (e.isFile) {
      dir.ownFiles++;
      if (keep) dir.fileNames.push(e.name);
      const dot = e.name.lastIndexOf(".");
      const ext = dot > 0 ? e.name.slice(dot).toLowerCase() : "";
      s.extensions.set(ext, (s.extensions.get(ext) ?? 0) + 1);
    } else if (e.isDirectory) {
      const child = node(e.name, dir.rel === "" ? e.name : `${dir.rel}/${e.name}`, dir.depth + 1);
      if (keep) dir.dirs.push(child);
      const generated = GENERATED[e.name];
      if (generated !== undefined) {
        child.skipped = generated;
        continue;
      }
      walk(s, path, child, narrowChain(chain, path));
      dir.files += child.files;
      dir.folders += child.folders + 1;
      if (s.partial) break;
    }
  }
  dir.files += dir.ownFiles;
}

/** Every kept folder, depth first (the root first). */
export function* folders(root: DirNode): Generator<DirNode> {
  yield root;
  for (const d of root.dirs) yield* folders(d);
}
