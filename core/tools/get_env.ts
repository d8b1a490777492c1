/**
 * `get_env`: the value of one environment variable as the commands minoc runs
 * would see it (session overrides from `set_env` / `unset_env` first, then
 * minoc's own environment).
 *
 * Values of names that look secret are masked: a value of 16 characters or
 * more shows as `****` plus its last 4 characters (enough to tell two keys
 * apart), a shorter one as `****` only.
 *
 * @module
 */
import * as z from "zod";
import type { ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { isCredentialName } from "./child_env.ts";
import { defineTool, ok } from "./define.ts";

/** A portable environment variable name. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;

/** Whether a variable called `name` probably holds a secret. */
export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** `****` plus the last 4 characters for values of 16+ characters, else `****`. */
export function maskValue(value: string): string {
  return value.length >= 16 ? `****${value.slice(-4)}` : "****";
}

/** Zod schema of a variable name, shared by the environment tools. */
export const envName = z.string().trim().regex(
  ENV_NAME,
  "must be letters, digits and underscores, not starting with a digit",
);

const schema = z.object({ name: envName });

type Args = z.infer<typeof schema>;

/** Reads an environment variable, masking secrets. */
export const getEnv = defineTool<Args>({
  name: "get_env",
  kind: "read",
  description: "Read an environment variable (secrets masked).",
  params: [{ name: "name", description: "Variable name, e.g. NODE_ENV", required: true }],
  schema,
  example: { name: "NODE_ENV" },
  execute: read,
});

function read(args: Args, ctx: ToolContext): Promise<ToolResult> {
  const { name } = args;
  const override = ctx.env.get(name);
  const fromSession = override !== undefined;
  const value = fromSession ? override : Deno.env.get(name) ?? null;
  if (isCredentialName(name)) {
    return Promise.resolve(ok(`${name} holds minoc's API key: commands never see it`));
  }
  if (value === null) {
    const why = fromSession ? " (removed by unset_env in this session)" : "";
    return Promise.resolve(ok(`${name} is not set${why}`));
  }
  const where = fromSession ? " (set by set_env in this session)" : "";
  if (looksSecret(name)) {
    const text = `${name}=${maskValue(value)}${where}\n` +
      `[the value is masked because the name looks like a secret; it is ${value.length} characters long]`;
    return Promise.resolve(ok(text, `${name}=${maskValue(value)}`));
  }
  return Promise.resolve(ok(`${name}=${value}${where}`, `${name}=${value}`));
}
