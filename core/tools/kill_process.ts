/**
 * `kill_process`: stops a background process and everything it started.
 *
 * @module
 */
import * as z from "zod";
import type { ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { defineTool, fail, ok } from "./define.ts";
import { describeProcess, unknownProcessMessage } from "./process_table.ts";

const schema = z.object({ id: z.string().trim().min(1, "the id is empty") });

type Args = z.infer<typeof schema>;

/** Stops a background process tree by id. */
export const killProcess = defineTool<Args>({
  name: "kill_process",
  kind: "exec",
  description: "Stop a background process and its children.",
  params: [{ name: "id", description: "Id from start_process", required: true }],
  schema,
  example: { id: "p1" },
  execute: kill,
});

async function kill(args: Args, ctx: ToolContext): Promise<ToolResult> {
  const before = ctx.processes.list().find((p) => p.id === args.id);
  if (!before) {
    return fail("unknown_process", unknownProcessMessage(args.id, ctx.processes.list()));
  }
  if (before.exitCode !== null) {
    await ctx.processes.kill(args.id);
    return ok(`Process ${describeProcess(before)}; it was not running`, `${before.id} had exited`);
  }
  await ctx.processes.kill(args.id);
  const after = ctx.processes.list().find((p) => p.id === args.id) ?? before;
  return ok(`Stopped process ${describeProcess(after)}`, `stopped ${after.id}`);
}
