/**
 * `read_process_output`: the recent output of a background process.
 *
 * @module
 */
import * as z from "zod";
import type { ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { defineTool, fail, ok } from "./define.ts";
import { describeProcess, unknownProcessMessage } from "./process_table.ts";

/** Lines returned when the call gives no `tail`. */
const DEFAULT_TAIL = 200;

const schema = z.object({
  id: z.string().trim().min(1, "the id is empty"),
  tail: z.number().int().min(1).optional(),
});

type Args = z.infer<typeof schema>;

/** Returns the last lines of a background process's combined output. */
export const readProcessOutput = defineTool<Args>({
  name: "read_process_output",
  kind: "read",
  description: `The last lines (default ${DEFAULT_TAIL}) of a background process's output.`,
  params: [
    { name: "id", description: "Id from start_process", required: true },
    { name: "tail", description: "How many last lines", required: false, type: "integer" },
  ],
  schema,
  example: { id: "p1", tail: "50" },
  execute: read,
});

function read(args: Args, ctx: ToolContext): Promise<ToolResult> {
  const all = ctx.processes.list();
  const info = all.find((p) => p.id === args.id);
  const text = ctx.processes.output(args.id, args.tail ?? DEFAULT_TAIL);
  if (!info || text === null) {
    return Promise.resolve(fail("unknown_process", unknownProcessMessage(args.id, all)));
  }
  const body = text === "" ? "(no output yet)" : text;
  const lines = text === "" ? 0 : text.split("\n").length;
  return Promise.resolve(
    ok(`Process ${describeProcess(info)}\nOutput:\n${body}`, `${info.id}: ${lines} lines`),
  );
}
