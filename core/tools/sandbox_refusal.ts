/**
 * Escalation for `execute_command`: a command runs confined by the session's
 * sandbox (when there is one); when it fails and its output shows writes
 * refused outside the writable places, the model and the user are told
 * which paths, and the user (in a terminal only) may let it run once more
 * without the sandbox. Nobody is asked in `run`, so `--yes` never escalates.
 *
 * @example
 * ```ts
 * return await withEscalation(command, ctx, (spawner) => runOnce(args, ctx, spawner));
 * ```
 * @module
 */
import type { CommandSpawner, ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { fail } from "./define.ts";

/** Runs `run` confined; on a refusal outside, reports the paths and may run it again unconfined. */
export async function withEscalation(
  command: string,
  ctx: ToolContext,
  run: (spawner: CommandSpawner | null) => Promise<ToolResult>,
): Promise<ToolResult> {
  let spawner: CommandSpawner | null;
  try {
    spawner = await ctx.sandbox?.spawner() ?? null;
  } catch (e) {
    return fail("spawn_failed", `Cannot start the command: ${(e as Error).message}`);
  }
  const first = await run(spawner);
  if (first.ok || !spawner || !ctx.sandbox || first.code !== "exit_code") return first;
  const paths = await ctx.sandbox.refusedPaths(first.output, ctx.cwd, command);
  if (paths.length === 0) return first;
  const shown = listPaths(paths);
  if (await ctx.sandbox.escalate(command, paths)) {
    const again = await run(null);
    const note = `[The sandbox refused writing to ${shown}; the user allowed running it once ` +
      "without the sandbox, and this is that run]\n";
    return { ...again, output: note + again.output, display: `unsandboxed · ${again.display}` };
  }
  const output = `${first.output}\n${refusal(shown)}`;
  return fail("sandbox_refused", output, `sandbox refused writing to ${shown}`);
}

/**
 * For a background process that ended at once: the note naming the paths
 * the sandbox refused it, or "" (no escalation: it runs on its own).
 */
export async function refusalNote(
  output: string,
  command: string,
  ctx: ToolContext,
): Promise<string> {
  const paths = ctx.sandbox ? await ctx.sandbox.refusedPaths(output, ctx.cwd, command) : [];
  return paths.length === 0 ? "" : `\n${refusal(listPaths(paths))}`;
}

function listPaths(paths: readonly string[]): string {
  return paths.slice(0, 5).map((p) => `"${p}"`).join(", ") +
    (paths.length > 5 ? ` and ${paths.length - 5} more` : "");
}

function refusal(shown: string): string {
  return `[The sandbox refused writing to ${shown}: commands may write only beneath the ` +
    "working directory, the session's temp dir ($TMPDIR) and the folders in sandbox.writable. " +
    "Work inside the project, or ask the user to add the folder to sandbox.writable in " +
    "settings.json]";
}
