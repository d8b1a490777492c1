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
 * await fileOpCommands(input, "/repo"); // ["tee '/etc/cron.d/x'"]
 * ```
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import type { GateInput } from "../../../interfaces/tool.ts";
import { realPathOf } from "../paths_guard.ts";

/** Generic warnings that say nothing about a file tool (it asks by default anyway). */
export const FILE_TOOL_QUIET_RULES: ReadonlySet<string> = new Set(["permissions"]);

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

/** One bash command per path (and per symlink target) that does what the call does. */
export async function fileOpCommands(input: GateInput): Promise<string[]> {
  const args = (input.args ?? {}) as { recursive?: unknown; mode?: unknown };
  const out: string[] = [];
  for (const written of filePaths(input)) {
    const real = await realPathOf(written);
    for (const path of new Set([written, ...(real ? [real] : [])])) {
      out.push(opFor(input.tool.name, quote(path), args));
    }
  }
  return out;
}

function opFor(tool: string, path: string, args: { recursive?: unknown; mode?: unknown }): string {
  switch (tool) {
    case "delete_file":
      return `rm -f${args.recursive === true ? "r" : ""} ${path}`;
    case "chmod":
      return `chmod ${quote(String(args.mode ?? "644"))} ${path}`;
    default:
      return `tee ${path}`;
  }
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
