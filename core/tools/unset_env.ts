/**
 * `unset_env`: removes an environment variable from the commands and
 * background processes minoc starts later in this session. minoc's own
 * environment is never changed.
 *
 * @module
 */
import * as z from "zod";
import type { ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { defineTool, ok } from "./define.ts";
import { envName } from "./get_env.ts";

const schema = z.object({ name: envName });

type Args = z.infer<typeof schema>;

/** Removes a variable from the session's command environment. */
export const unsetEnv = defineTool<Args>({
  name: "unset_env",
  kind: "write",
  description: "Remove an environment variable.",
  params: [{ name: "name", description: "Variable name", required: true }],
  schema,
  example: { name: "NODE_ENV" },
  execute: unset,
});

function unset(args: Args, ctx: ToolContext): Promise<ToolResult> {
  const current = ctx.env.has(args.name) ? ctx.env.get(args.name) : Deno.env.get(args.name);
  const wasSet = current !== null && current !== undefined;
  ctx.env.set(args.name, null);
  const note = wasSet ? "" : " (it was not set)";
  return Promise.resolve(
    ok(
      `Removed ${args.name} from the commands run later in this session${note}`,
      `unset ${args.name}`,
    ),
  );
}
