/**
 * `list_processes`: the background processes of this session and their state.
 *
 * @module
 */
import * as z from "zod";
import type { ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { defineTool, ok } from "./define.ts";
import { describeProcess } from "./process_table.ts";

const schema = z.object({});

/** Lists the background processes started with `start_process`. */
export const listProcesses = defineTool<Record<string, never>>({
  name: "list_processes",
  kind: "read",
  description: "List the background processes.",
  params: [],
  schema,
  example: {},
  execute: list,
});

function list(_args: Record<string, never>, ctx: ToolContext): Promise<ToolResult> {
  const all = ctx.processes.list();
  if (all.length === 0) {
    return Promise.resolve(ok("No background processes were started in this session"));
  }
  const running = all.filter((p) => p.exitCode === null).length;
  const lines = all.map((p) => `${describeProcess(p)} (started ${p.startedAt})`);
  return Promise.resolve(
    ok(lines.join("\n"), `${all.length} processes, ${running} running`),
  );
}
