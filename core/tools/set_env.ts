/**
 * `set_env`: sets an environment variable for the commands and background
 * processes minoc starts later in this session. minoc's own environment is
 * never changed.
 *
 * @module
 */
import * as z from "zod";
import type { ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { defineTool, ok } from "./define.ts";
import { envName, looksSecret, maskValue } from "./get_env.ts";

const schema = z.object({ name: envName, value: z.string() });

type Args = z.infer<typeof schema>;

/** Sets a session environment variable. */
export const setEnv = defineTool<Args>({
  name: "set_env",
  kind: "write",
  description: "Set an environment variable for later commands.",
  params: [
    { name: "name", description: "Variable name", required: true },
    { name: "value", description: "Value (may be empty)", required: true },
  ],
  schema,
  example: { name: "NODE_ENV", value: "test" },
  execute: set,
});

function set(args: Args, ctx: ToolContext): Promise<ToolResult> {
  ctx.env.set(args.name, args.value);
  const shown = looksSecret(args.name) ? maskValue(args.value) : args.value;
  return Promise.resolve(
    ok(`Set ${args.name} for the commands run later in this session`, `${args.name}=${shown}`),
  );
}
