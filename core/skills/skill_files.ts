/**
 * The files of a skill folder, for the model to see what it holds: paths
 * relative to the folder, sorted, at most 50.
 *
 * @module
 */
import { join, relative } from "node:path";

/** Files under `dir` (relative to `base`, default `dir`), at most 50, sorted. */
export async function listFiles(dir: string, base = dir, out: string[] = []): Promise<string[]> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (out.length >= 50) break;
    const abs = join(dir, e.name);
    if (e.isDirectory) await listFiles(abs, base, out);
    else out.push(relative(base, abs).replace(/\\/g, "/"));
  }
  return out;
}
