/**
 * `start_process`: starts a long-running command (a server, a watcher) in the
 * background and returns its id at once.
 *
 * @module
 */
import * as z from "zod";
import type { ProcessInfo, ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { defineTool, fail, ok } from "./define.ts";
import { describeProcess } from "./process_table.ts";
import { commandEnv } from "./shell.ts";
import { refusalNote } from "./sandbox_refusal.ts";

/** How long to watch a new process for an early exit before answering. */
const SETTLE_MS = 500;
/** Lines of early output shown with the answer. */
const EARLY_LINES = 20;

const schema = z.object({ command: z.string().trim().min(1, "the command is empty") });

type Args = z.infer<typeof schema>;

/** Starts a background process in the working directory. */
export const startProcess = defineTool<Args>({
  name: "start_process",
  kind: "exec",
  description: "Start a server or watcher in the background (not execute_command); returns its id.",
  params: [{ name: "command", description: "Command line", required: true }],
  schema,
  example: { command: "npm run dev" },
  execute: start,
  preview: (args, ctx) => Promise.resolve({ kind: "exec", command: args.command, cwd: ctx.cwd }),
});

async function start(args: Args, ctx: ToolContext): Promise<ToolResult> {
  let info: ProcessInfo;
  try {
    const spawner = await ctx.sandbox?.spawner();
    info = ctx.processes.start(args.command, ctx.cwd, commandEnv(ctx.env), spawner);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return fail("spawn_failed", `Cannot start the command in "${ctx.cwd}": ${why}`);
  }
  const now = await settle(info.id, ctx);
  const early = ctx.processes.output(info.id, EARLY_LINES) ?? "";
  const shown = early === "" ? "(no output yet)" : early;
  if (now.exitCode !== null) {
    const note = now.exitCode === 0 ? "" : await refusalNote(early, args.command, ctx);
    const text = `Process ${describeProcess(now)}\nOutput:\n${shown}${note}`;
    return now.exitCode === 0
      ? ok(text, `${now.id} exited at once (code 0)`)
      : fail("exit_code", text, `${now.id} exited at once (code ${now.exitCode})`);
  }
  const text = `Started process ${describeProcess(now)}\n` +
    `Use read_process_output with id "${now.id}" for its output and kill_process to stop it.\n` +
    `Output so far:\n${shown}`;
  return ok(text, `started ${now.id} (pid ${now.pid})`);
}

/** Waits a moment so that a command that fails at once is reported as such. */
async function settle(id: string, ctx: ToolContext): Promise<ProcessInfo> {
  const deadline = Date.now() + SETTLE_MS;
  let info = current(id, ctx);
  while (info.exitCode === null && Date.now() < deadline && !ctx.signal.aborted) {
    await new Promise((r) => setTimeout(r, 50));
    info = current(id, ctx);
  }
  return info;
}

function current(id: string, ctx: ToolContext): ProcessInfo {
  const found = ctx.processes.list().find((p) => p.id === id);
  if (!found) throw new Error(`Process "${id}" vanished from the table`);
  return found;
}
