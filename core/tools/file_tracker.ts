/**
 * The read-modify-write guard's memory: what the agent last read or wrote.
 *
 * A file counts as fresh when its size and modification time are what they
 * were when the agent last read or wrote it. Deno reports times in whole
 * milliseconds, so a same-size change within the same millisecond goes
 * unnoticed; the contract passes only `FileInfo`, so no content hash is kept.
 *
 * @example
 * ```ts
 * const files = createFileTracker();
 * files.remember("/w/a.ts", info);
 * files.check("/w/a.ts", info); // "fresh"
 * ```
 * @module
 */
import { resolve } from "node:path";
import type { FileInfo, FileTracker, Freshness } from "../../interfaces/tool.ts";

interface Seen {
  size: number;
  mtimeMs: number | null;
}

/** A tracker for one session; paths are normalised, so `a/../b` and `b` are one file. */
export function createFileTracker(): FileTracker {
  const seen = new Map<string, Seen>();
  return {
    remember(path: string, info: FileInfo): void {
      seen.set(resolve(path), { size: info.size, mtimeMs: info.mtimeMs });
    },
    check(path: string, info: FileInfo): Freshness {
      const last = seen.get(resolve(path));
      if (!last) return "unread";
      if (last.size !== info.size || last.mtimeMs !== info.mtimeMs) return "changed";
      return "fresh";
    },
  };
}
