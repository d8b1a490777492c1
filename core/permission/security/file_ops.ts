/**
 * File tools under the security rules: a call of a tool that writes,
 * deletes or changes modes is described as the shell command that would do
 * the same (`tee`, `rm`, `chmod`) on each path it touches, written and
 * resolved through symlinks, so the protected paths of the command rules
 * (system files, the home directory and its entries, drive roots) apply to
 * `write_to_file /etc/cron.d/x` exactly as to `tee /etc/cron.d/x`.
 *
 * @example
 * ```ts
 * (await fileOpSegments(input)).map((s) => s.text); // ["tee /etc/cron.d/x"]
 * ```
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import type { GateInput } from "../../../interfaces/tool.ts";
import { realPathOf } from "../paths_guard.ts";
import type { Segment, Word } from "./types.ts";

/** Warnings that say nothing new about a file tool (it asks by default; `.env` writes ask in the paths guard). */
export const FILE_TOOL_QUIET_RULES: ReadonlySet<string> = new Set(["permissions", "secret-files"]);

/** Whether a call is one of a file tool that changes files (not a command tool). */
export function changesFiles(input: GateInput): boolean {
  return input.tool.kind === "write" && input.preview.kind !== "exec" &&
    filePaths(input).length > 0;
}

/** The paths a file tool's call touches: its `path` arguments and its preview's files. */
export function filePaths(input: GateInput): string[] {
  const args = (typeof input.args === "object" && input.args !== null ? input.args : {}) as Record<
    string,
    unknown
  >;
  const raw = args.path ?? input.call.params.path;
  const list = (Array.isArray(raw) ? raw : [raw]).filter((p): p is string =>
    typeof p === "string" && p.trim() !== ""
  );
  const p = input.preview;
  if (p.kind === "edit") list.push(p.path);
  if (p.kind === "multi_edit") list.push(...p.files.map((f) => f.path));
  const base = input.cwd;
  return [...new Set(list.map((x) => (isAbsolute(x) ? x : resolve(base, x))))];
}

/** One command per path (and per symlink target) that does what the call does, ready to judge. */
export async function fileOpSegments(input: GateInput): Promise<Segment[]> {
  const args = (input.args ?? {}) as { recursive?: unknown; mode?: unknown };
  const out: Segment[] = [];
  for (const written of filePaths(input)) {
    const real = await realPathOf(written);
    for (const path of new Set([written, ...(real ? [real] : [])])) {
      out.push(segmentOf(opFor(input.tool.name, path, args)));
    }
  }
  return out;
}

function opFor(
  tool: string,
  path: string,
  args: { recursive?: unknown; mode?: unknown },
): string[] {
  switch (tool) {
    case "delete_file":
      return ["rm", args.recursive === true ? "-rf" : "-f", path];
    case "chmod":
      return ["chmod", String(args.mode ?? "644"), path];
    default:
      return ["tee", path];
  }
}

/** A parsed command built directly (no shell parse: the words are known). */
/**
 * Segments like those of a first write, delete and mode change under `dir`
 * (a path that is never touched), for warming the rules up before a real call.
 */
export function warmSegments(dir: string): Segment[] {
  const path = resolve(dir, ".minoc-warm-up");
  return [["tee", path], ["rm", "-f", path], ["chmod", "644", path]].map(segmentOf);
}

function segmentOf(words: string[]): Segment {
  const word = (text: string): Word => ({ text, literal: true, sources: [] });
  const text = words.map((w, i) => (i === 0 ? w : quote(w))).join(" ");
  return {
    shell: "bash",
    name: words[0],
    rawName: words[0],
    args: words.slice(1).map(word),
    text,
    writes: [],
    stdin: null,
    pipeline: text,
  };
}

function quote(text: string): string {
  return /^[A-Za-z0-9_\-./:=@+%]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
