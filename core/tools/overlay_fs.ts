/**
 * An in-memory overlay over another `FsPort` (the real disk), for dry-run:
 * reads see the real files plus every write, edit and delete made through
 * the overlay, and nothing ever reaches the disk below. At the end,
 * {@link OverlayFs.changes} lists each file whose content would change.
 *
 * An overlay entry shadows the whole subtree below it: a directory created
 * or re-created in the overlay never shows what the disk holds beneath that
 * path, a deleted path hides everything below it.
 *
 * @example
 * ```ts
 * const fs = new OverlayFs(realFs);
 * await fs.writeFile("/repo/a.txt", new TextEncoder().encode("hi"));
 * (await fs.changes()).files; // [{ path: "/repo/a.txt", before: null, after: Uint8Array }]
 * ```
 * @module
 */
import { dirname, join, resolve, sep } from "node:path";
import type { DirEntry, FileInfo, FsPort } from "../../interfaces/tool.ts";

/** One file whose content would change; null = absent. */
export interface FileDiff {
  path: string;
  before: Uint8Array | null;
  after: Uint8Array | null;
}

/** A directory the overlay would create or delete. */
export interface DirChange {
  path: string;
  action: "create" | "delete";
}

/** Every change the overlay holds, as a diff against the disk below, sorted by path. */
export interface OverlayChanges {
  files: FileDiff[];
  dirs: DirChange[];
}

type Node =
  | { kind: "file"; data: Uint8Array; mtimeMs: number }
  | { kind: "dir"; mtimeMs: number }
  | { kind: "gone" };

/** What a path is in the overlay's view. */
type View = Node | "inner" | null;

/** An `FsPort` that keeps every change in memory over `inner`. */
export class OverlayFs implements FsPort {
  readonly #nodes = new Map<string, Node>();
  readonly #children = new Map<string, Set<string>>();

  constructor(private readonly inner: FsPort) {}

  /** Reads the overlay's file, or the disk's when the overlay has none. */
  readFile = async (path: string, o?: { maxBytes?: number }): Promise<Uint8Array> => {
    const p = resolve(path);
    const v = this.#view(p);
    if (v === "inner") return await this.inner.readFile(p, o);
    if (v?.kind === "file") return v.data.slice();
    if (v?.kind === "dir") throw new Deno.errors.IsADirectory(`Is a directory: readfile '${p}'`);
    throw notFound("readfile", p);
  };

  /** Stores the file in memory; its parent directory must exist in the overlay's view. */
  writeFile = async (path: string, data: Uint8Array): Promise<void> => {
    const p = resolve(path);
    const parent = await this.stat(dirname(p));
    if (!parent?.isDirectory) throw notFound("open", p);
    if ((await this.stat(p))?.isDirectory) {
      throw new Deno.errors.IsADirectory(`Is a directory: open '${p}'`);
    }
    this.#set(p, { kind: "file", data: data.slice(), mtimeMs: Date.now() });
  };

  /** Records the directory (and, with `recursive`, its missing parents). */
  mkdir = async (path: string, options?: { recursive?: boolean }): Promise<void> => {
    const p = resolve(path);
    const info = await this.stat(p);
    if (info) {
      if (info.isDirectory && options?.recursive) return;
      throw new Deno.errors.AlreadyExists(`File exists: mkdir '${p}'`);
    }
    const parent = dirname(p);
    if (parent !== p && !(await this.stat(parent))?.isDirectory) {
      if (!options?.recursive) throw notFound("mkdir", p);
      await this.mkdir(parent, options);
    }
    this.#set(p, { kind: "dir", mtimeMs: Date.now() });
  };

  /** Metadata in the overlay's view; null when absent. */
  stat = async (path: string): Promise<FileInfo | null> => {
    const p = resolve(path);
    const v = this.#view(p);
    if (v === "inner") return await this.inner.stat(p);
    if (v === null || v.kind === "gone") return null;
    const isFile = v.kind === "file";
    return {
      isFile,
      isDirectory: !isFile,
      isSymlink: false,
      size: isFile ? v.data.length : 0,
      mtimeMs: v.mtimeMs,
    };
  };

  /** The directory's entries: the disk's, with the overlay's added, replaced or removed. */
  readDir = async (path: string): Promise<DirEntry[]> => {
    const p = resolve(path);
    const v = this.#view(p);
    if (v === null || (v !== "inner" && v.kind === "gone")) throw notFound("readdir", p);
    if (v !== "inner" && v.kind === "file") {
      throw new Deno.errors.NotADirectory(`Not a directory: readdir '${p}'`);
    }
    const byName = new Map<string, DirEntry>();
    if (v === "inner") { for (const e of await this.inner.readDir(p)) byName.set(e.name, e); }
    for (const name of this.#children.get(p) ?? []) {
      const node = this.#nodes.get(join(p, name));
      if (!node) continue;
      if (node.kind === "gone") byName.delete(name);
      else byName.set(name, entryOf(name, node));
    }
    return [...byName.values()];
  };

  /** Hides the path (and, with `recursive`, everything below it). */
  remove = async (path: string, options?: { recursive?: boolean }): Promise<void> => {
    const p = resolve(path);
    const info = await this.stat(p);
    if (!info) throw notFound("remove", p);
    if (info.isDirectory && !info.isSymlink && !options?.recursive) {
      if ((await this.readDir(p)).length > 0) {
        throw new Error(`Directory not empty: remove '${p}'`);
      }
    }
    for (const key of [...this.#nodes.keys()]) {
      if (key.startsWith(p + sep)) this.#drop(key);
    }
    this.#set(p, { kind: "gone" });
  };

  /** True when nothing was changed through the overlay. */
  get untouched(): boolean {
    return this.#nodes.size === 0;
  }

  /** Each file and directory that differs from the disk below, sorted by path. */
  async changes(): Promise<OverlayChanges> {
    const candidates = new Set<string>();
    const dirs: DirChange[] = [];
    for (const [path, node] of this.#nodes) {
      if (node.kind === "file") {
        candidates.add(path);
        continue;
      }
      const below = await this.inner.stat(path);
      if (below?.isFile) candidates.add(path);
      if (below?.isDirectory && !below.isSymlink) {
        for (const f of await innerFiles(this.inner, path)) candidates.add(f);
        if (node.kind === "gone" && (await this.stat(path)) === null) {
          dirs.push({ path, action: "delete" });
        }
      }
      if (node.kind === "dir" && !below?.isDirectory) dirs.push({ path, action: "create" });
    }
    const files: FileDiff[] = [];
    for (const path of [...candidates].sort()) {
      const before = await fileBytes(this.inner, path);
      const info = await this.stat(path);
      const after = info?.isFile ? await this.readFile(path) : null;
      if (!sameBytes(before, after)) files.push({ path, before, after });
    }
    dirs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files, dirs };
  }

  /** The node at `p`, "inner" when the disk decides, null when an ancestor hides it. */
  #view(p: string): View {
    if (this.#nodes.size === 0) return "inner";
    const own = this.#nodes.get(p);
    if (own) return own;
    for (let a = dirname(p), prev = p; a !== prev; prev = a, a = dirname(a)) {
      if (this.#nodes.has(a)) return null;
    }
    return "inner";
  }

  #set(p: string, node: Node): void {
    this.#nodes.set(p, node);
    const parent = dirname(p);
    if (parent === p) return;
    let names = this.#children.get(parent);
    if (!names) this.#children.set(parent, names = new Set());
    names.add(p.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
  }

  #drop(p: string): void {
    this.#nodes.delete(p);
    this.#children.delete(p);
  }
}

function entryOf(name: string, node: Exclude<Node, { kind: "gone" }>): DirEntry {
  const isFile = node.kind === "file";
  return { name, isFile, isDirectory: !isFile, isSymlink: false };
}

function notFound(op: string, p: string): Error {
  return new Deno.errors.NotFound(`No such file or directory: ${op} '${p}'`);
}

/** Every file below `dir` on `fs` (symbolic links are not followed). */
async function innerFiles(fs: FsPort, dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries: DirEntry[];
  try {
    entries = await fs.readDir(dir);
  } catch {
    return out;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory && !e.isSymlink) out.push(...await innerFiles(fs, path));
    else if (e.isFile) out.push(path);
  }
  return out;
}

async function fileBytes(fs: FsPort, path: string): Promise<Uint8Array | null> {
  const info = await fs.stat(path);
  return info?.isFile ? await fs.readFile(path) : null;
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
