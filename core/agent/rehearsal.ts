/**
 * A rehearsal of a session's first file calls, for the warm-up: the real
 * `write_to_file`, `read_file` and `list_files` tools, with their previews,
 * undo backups and result messages, run once in a scratch folder of the
 * system's temp directory that is removed afterwards. The first real call then
 * finds its code compiled and its file operations started, instead of paying
 * for both between the model's reply and the next request (issue 24).
 *
 * Nothing of the session is touched: the scratch context has its own file
 * tracker, backup store, environment and process table, and its folder is
 * not the project's. No gate is asked, no message recorded.
 *
 * @module
 */
import { join } from "node:path";
import type { AnyTool, ToolCall, ToolContext } from "../../interfaces/tool.ts";
import { createBackupStore } from "../history/backups.ts";
import { backingUpFs } from "../history/backup_fs.ts";
import { redactedJson } from "../history/redact.ts";
import { resultMessage } from "../protocol/call_text.ts";
import { coerceArgs, runTool } from "../tools/dispatch.ts";
import { createFileTracker } from "../tools/file_tracker.ts";
import { realFs } from "../tools/fs_port.ts";
import { createProcessTable } from "../tools/process_table.ts";

/** The calls rehearsed, in order: a new file, a read, an overwrite (with a diff), a listing. */
const PLAN: readonly ToolCall[] = [
  { tool: "write_to_file", params: { path: "notes.md", content: "one\n" } },
  { tool: "read_file", params: { path: "notes.md" } },
  { tool: "write_to_file", params: { path: "notes.md", content: "one\ntwo\n" } },
  { tool: "list_files", params: { path: "." } },
];

/**
 * Runs {@link PLAN} with `tools` (those it names that exist), awaiting `step()`
 * between pieces so the caller can pause it; never throws. The scratch folder
 * is made in `root` (default: the system's temp directory).
 */
export async function rehearse(
  tools: readonly AnyTool[],
  step: () => Promise<void>,
  root?: string,
): Promise<void> {
  let dir: string | undefined;
  try {
    dir = await Deno.makeTempDir({ prefix: "minoc-warm-up-", dir: root });
    const ctx = await scratchContext(dir);
    for (const call of PLAN) {
      const tool = tools.find((t) => t.name === call.tool);
      if (tool === undefined) continue;
      await step();
      await rehearseCall(tool, call, ctx);
    }
  } catch {
    // A rehearsal that fails only means the first real call pays.
  } finally {
    if (dir !== undefined) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

async function rehearseCall(tool: AnyTool, call: ToolCall, ctx: ToolContext): Promise<void> {
  const coerced = coerceArgs(tool, call);
  if (!coerced.ok) return;
  if (tool.preview) await tool.preview(coerced.args, ctx);
  const result = await runTool(tool, coerced.args, ctx);
  // What the recorder does with a result: a JSON line, redacted.
  redactedJson({ role: "tool_result", content: resultMessage(call, result) });
}

/** A tool context confined to `dir`, sharing nothing with the session. */
async function scratchContext(dir: string): Promise<ToolContext> {
  const backups = await createBackupStore(join(dir, ".backups"), "warm-up");
  return {
    cwd: dir,
    signal: new AbortController().signal,
    fs: backingUpFs(realFs, backups),
    files: createFileTracker(),
    env: new Map(),
    processes: createProcessTable(),
    ask: () => Promise.reject(new Error("Nobody answers questions in a warm-up")),
  };
}
