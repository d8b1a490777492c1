/**
 * What a dry-run would have done, as data: every file change with its
 * unified diff (paths relative to the working directory), the directories
 * it would create or delete, and the calls it did not run with each gate's
 * verdict. `run --dry-run --json` prints this; the terminal renders it.
 *
 * @example
 * ```ts
 * const report = await dryRunReport(dry, cwd);
 * console.log(report.diff);
 * ```
 * @module
 */
import { isAbsolute, relative } from "node:path";
import { createTwoFilesPatch } from "diff";
import type { DryRun, SimulatedCommand } from "./dry_run.ts";
import { decodeText } from "../tools/paths.ts";

/** One file the dry-run would change. */
export interface FileReport {
  /** Relative to the working directory when inside it, `/`-separated. */
  path: string;
  action: "create" | "modify" | "delete";
  /** This file's unified diff (`Binary files … differ` for binary content). */
  diff: string;
}

/** Everything a dry-run would have done. */
export interface DryRunReport {
  files: FileReport[];
  directories: { path: string; action: "create" | "delete" }[];
  /** One unified diff of every file, in path order. */
  diff: string;
  commands: SimulatedCommand[];
}

/** Builds the report of `dry`, with paths relative to `cwd`. */
export async function dryRunReport(dry: DryRun, cwd: string): Promise<DryRunReport> {
  const changes = await dry.fs.changes();
  const files = changes.files.map((f): FileReport => {
    const path = shownPath(cwd, f.path);
    const action = f.before === null ? "create" : f.after === null ? "delete" : "modify";
    return { path, action, diff: unifiedDiff(path, f.before, f.after) };
  });
  return {
    files,
    directories: changes.dirs.map((d) => ({ path: shownPath(cwd, d.path), action: d.action })),
    diff: files.map((f) => f.diff).join(""),
    commands: [...dry.commands()],
  };
}

/**
 * A git-style unified diff of one file (`/dev/null` for an absent side);
 * ends with a newline. Binary content gives one `Binary files … differ` line.
 */
export function unifiedDiff(
  path: string,
  before: Uint8Array | null,
  after: Uint8Array | null,
): string {
  const oldName = before === null ? "/dev/null" : `a/${path}`;
  const newName = after === null ? "/dev/null" : `b/${path}`;
  const oldText = before === null ? "" : decodeText(before);
  const newText = after === null ? "" : decodeText(after);
  if (oldText === null || newText === null) {
    return `Binary files ${oldName} and ${newName} differ\n`;
  }
  const patch = createTwoFilesPatch(oldName, newName, oldText, newText, undefined, undefined, {
    context: 3,
  });
  // Drop the "====" separator line the library puts first.
  return patch.slice(patch.indexOf("\n") + 1);
}

function shownPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return abs;
  return rel.replaceAll("\\", "/");
}
