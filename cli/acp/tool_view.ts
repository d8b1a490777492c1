/**
 * How a minoc tool call looks in an ACP client: its kind (the editor's icon),
 * the files it touches as `locations`, and file changes as diffs.
 *
 * @example
 * ```ts
 * toolKind("replace_in_file"); // "edit"
 * callLocations({ path: "a.ts", start_line: "3" }, "/p");
 * // [{ path: "/p/a.ts", line: 3 }]
 * ```
 * @module
 */
import { isAbsolute, join } from "node:path";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import type { Preview } from "../../interfaces/tool.ts";

const KINDS: Record<string, ToolKind> = {
  read_file: "read",
  read_files: "read",
  read_process_output: "read",
  list_processes: "read",
  get_env: "read",
  use_skill: "read",
  blackboard_get: "read",
  list_files: "search",
  search_files: "search",
  glob: "search",
  write_to_file: "edit",
  replace_in_file: "edit",
  edit_file: "edit",
  apply_edit_blocks: "edit",
  create_directory: "edit",
  chmod: "edit",
  delete_file: "delete",
  execute_command: "execute",
  start_process: "execute",
  kill_process: "execute",
  run_skill_script: "execute",
  ask_followup_question: "think",
  attempt_completion: "think",
};

/** The ACP kind of a minoc tool; `other` for tools with no better fit. */
export function toolKind(tool: string): ToolKind {
  return KINDS[tool] ?? "other";
}

const PATH_PARAMS = ["path", "directory"];

/**
 * The files and folders a call names (raw or validated parameters), as
 * absolute paths, with the first line read when there is one.
 */
export function callLocations(params: Record<string, unknown>, cwd: string): ToolCallLocation[] {
  const out: ToolCallLocation[] = [];
  const line = Number(params.start_line);
  for (const name of PATH_PARAMS) {
    const value = params[name];
    const list: unknown[] = value === undefined ? [] : Array.isArray(value) ? value : [value];
    for (const p of list) {
      if (typeof p !== "string") continue;
      const path = p.trim();
      if (path === "") continue;
      const abs = isAbsolute(path) ? path : join(cwd, path);
      out.push(Number.isInteger(line) && line > 0 ? { path: abs, line } : { path: abs });
    }
  }
  return out;
}

/** The diffs a preview shows (old and new text of each file), for the editor's diff view. */
export function previewContent(preview: Preview): ToolCallContent[] {
  if (preview.kind === "edit") return [diff(preview.path, preview.before, preview.after)];
  if (preview.kind === "multi_edit") {
    return preview.files.map((f) => diff(f.path, f.before, f.after));
  }
  if (preview.kind === "exec") {
    return [text(`$ ${preview.command}${preview.confinement ? `\n${preview.confinement}` : ""}`)];
  }
  return [];
}

/** The locations a preview names (edits of several files). */
export function previewLocations(preview: Preview): ToolCallLocation[] {
  if (preview.kind === "edit") return [{ path: preview.path }];
  if (preview.kind === "multi_edit") return preview.files.map((f) => ({ path: f.path }));
  return [];
}

function diff(path: string, before: string | null, after: string | null): ToolCallContent {
  return { type: "diff", path, oldText: before, newText: after ?? "" };
}

/** A plain text content item of a tool call. */
export function text(value: string): ToolCallContent {
  return { type: "content", content: { type: "text", text: value } };
}
