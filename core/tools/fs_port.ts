/**
 * The real disk behind the `FsPort` contract.
 *
 * @example
 * ```ts
 * const info = await realFs.stat("/tmp/x.txt"); // null when missing
 * ```
 * @module
 */
import process from "node:process";
import type { DirEntry, FileInfo, FsPort } from "../../interfaces/tool.ts";
import { readRegularFile, SYNC_READ_BYTES } from "./bounded_read.ts";

/**
 * `FsPort` over `Deno.*`: `stat` follows symlinks but reports them, and returns null when missing;
 * `readFile` refuses anything but a regular file and honours `maxBytes` (see bounded_read.ts).
 * Small files are written and directories made synchronously, as small files are read.
 */
export const realFs: FsPort = Object.freeze({
  readFile: (path: string, o?: { maxBytes?: number }) => readRegularFile(path, o),
  writeFile: async (path: string, data: Uint8Array) => {
    if (data.length <= SYNC_READ_BYTES) Deno.writeFileSync(path, data);
    else await Deno.writeFile(path, data);
  },
  mkdir: (path: string, options?: { recursive?: boolean }) =>
    Promise.resolve().then(() => Deno.mkdirSync(path, options)),
  stat: statPath,
  readDir: listDir,
  remove: (path: string, options?: { recursive?: boolean }) => Deno.remove(path, options),
});

/**
 * True when `fs` reads from the real disk: its read methods are `realFs`'s
 * own functions. A decorator that only intercepts writes (backups for undo)
 * keeps this by passing `readFile`, `readDir` and `stat` through as they are
 * (`readFile: inner.readFile`); a dry-run overlay replaces them and does not.
 * Walks and searches use faster direct disk access when this holds.
 */
export function readsRealDisk(fs: FsPort): boolean {
  return fs.readFile === realFs.readFile && fs.readDir === realFs.readDir &&
    fs.stat === realFs.stat;
}

/**
 * Whether a file, directory or other node is at `path` in `fs`, links
 * followed (a dangling link is nothing). On the real disk see {@link exists}.
 */
export async function reachable(fs: FsPort, path: string): Promise<boolean> {
  if (readsRealDisk(fs)) return exists(path);
  const info = await fs.stat(path);
  return info !== null && (!info.isSymlink || info.isFile || info.isDirectory);
}

/**
 * Asked synchronously: a stat takes microseconds, while an asynchronous one
 * waits ~40 µs for a worker thread, and a tool's walk or an ignore-file lookup
 * asks several per call.
 */
function statPath(path: string): Promise<FileInfo | null> {
  try {
    return Promise.resolve(statSync(path));
  } catch (e) {
    return Promise.reject(e);
  }
}

function statSync(path: string): FileInfo | null {
  let link: Deno.FileInfo;
  try {
    link = Deno.lstatSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  let target = link;
  if (link.isSymlink) {
    try {
      target = Deno.statSync(path);
    } catch (e) {
      // A dangling link: report the link itself.
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  return {
    isFile: target.isFile,
    isDirectory: target.isDirectory,
    isSymlink: link.isSymlink,
    size: target.size,
    mtimeMs: target.mtime?.getTime() ?? null,
  };
}

async function listDir(path: string): Promise<DirEntry[]> {
  const out: DirEntry[] = [];
  for await (const e of Deno.readDir(path)) {
    out.push({
      name: e.name,
      isFile: e.isFile,
      isDirectory: e.isDirectory,
      isSymlink: e.isSymlink,
    });
  }
  return out;
}

/**
 * Whether a file, directory or other node is at `path` on the real disk,
 * links followed (a dangling link, a path through a file or one minoc may not
 * read is nothing). Until {@link useNodeExists} has run, a missing path costs
 * a thrown error (Deno builds one per failed `stat`: 20 µs in a loop, ~100 in
 * a session); Node's `existsSync` answers without one.
 */
export function exists(path: string): boolean {
  return nodeExists === undefined ? statExists(path) : nodeExists(path);
}

/** {@link exists} before {@link useNodeExists}: one `stat`, a thrown error when nothing is there. */
export function statExists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

let nodeExists: ((path: string) => boolean) | undefined;

/**
 * Makes {@link exists} ask Node's `existsSync`. Loading `node:fs` takes ~11
 * ms, which would be part of every start if it were imported up front (the
 * start needs no other part of it), so the session's warm-up does it while the
 * model works (bench/NOTES.md, eleventh pass).
 */
export function useNodeExists(): void {
  nodeExists ??= process.getBuiltinModule("node:fs").existsSync;
}
