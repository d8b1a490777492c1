/**
 * Finds the paths a confined command was refused, in its output: the lines
 * that report EACCES/EPERM or a read-only file system (`Permission denied`,
 * `Operation not permitted`, `EACCES: permission denied, open '/x'`,
 * `PermissionError: [Errno 13] Permission denied: '/x'`), and in them the
 * quoted path or the path before the colon (`bash: /x: Permission denied`).
 * Only paths outside the writable places count: a refusal inside the
 * project is not the sandbox's doing.
 *
 * @example
 * ```ts
 * refusedPaths("touch: cannot touch '/home/u/x': Permission denied", "/p", ["/p"]); // ["/home/u/x"]
 * ```
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { beneath } from "./policy.ts";

const REFUSAL =
  /permission denied|operation not permitted|read-only file system|\bEACCES\b|\bEPERM\b|\bEROFS\b/i;
/** Quoted paths: '…', "…", ‘…’, `…'. */
const QUOTED = /['"‘`]((?:[~/.]|[A-Za-z]:\\)[^'"’\n]*)['"’]/g;
/** `prog: /path: Permission denied` and `prog: line 1: /path: Permission denied`. */
const COLON =
  /(?:^|:\s)((?:~|\.{0,2})\/[^:\n]*):\s*(?:Permission denied|Operation not permitted|Read-only file system)/gi;

/** Absolute paths not in quotes. */
const UNQUOTED = /(?:^|\s)(\/[^\s:'"]+)/g;

/**
 * Paths outside `writable` that the output says were refused, in order,
 * without repeats. When the output reports a refusal without a usable path
 * (`Permission denied: 'notes.txt'` relative to a folder it opened), the
 * absolute paths outside that `command` names are given instead.
 */
export function refusedPaths(
  output: string,
  cwd: string,
  writable: readonly string[],
  command = "",
): string[] {
  const found: string[] = [];
  const lines = output.split("\n").filter((line) => REFUSAL.test(line));
  for (const line of lines) {
    let candidates = [
      ...[...line.matchAll(QUOTED)].map((m) => m[1]),
      ...[...line.matchAll(COLON)].map((m) => m[1]),
    ];
    if (candidates.length === 0) {
      // `tar: /x: Cannot unlink: …`, `sh: 1: cannot create /x: …`; not the program's own path.
      candidates = [...line.matchAll(UNQUOTED)].filter((m) => m.index! > 0).map((m) => m[1]);
    }
    for (const raw of candidates) {
      const path = isAbsolute(raw) ? raw : resolve(cwd, raw);
      if (raw.startsWith("~")) continue; // the shell expands ~ before the call; skip the unexpanded echo
      if (writable.some((dir) => beneath(path, dir))) continue;
      if (!found.includes(path)) found.push(path);
    }
  }
  if (found.length > 0 || lines.length === 0) return found;
  for (const m of command.matchAll(/(?:^|[\s'"=(_])(\/[^\s'"`;|&)]+)/g)) {
    const path = m[1];
    if (!writable.some((dir) => beneath(path, dir)) && !found.includes(path)) found.push(path);
  }
  return found;
}
