/**
 * A call of one of minoc's tools as the gates see it: arguments checked,
 * preview made against the real disk in `cwd`.
 *
 * @example
 * ```ts
 * const input = await gateInput("write_to_file", { path: ".env", content: "A=1\n" }, dir);
 * ```
 * @module
 */
import type { AnyTool, GateInput } from "../../interfaces/tool.ts";
import { coerceArgs } from "../../core/tools/dispatch.ts";
import { tools } from "../../core/tools/mod.ts";
import { testContext } from "./tool_context.ts";

/** The gates' input for a call of the tool `name` (one of `from`) with `params`, in `cwd`. */
export async function gateInput(
  name: string,
  params: Record<string, string>,
  cwd: string,
  from: readonly AnyTool[] = tools,
): Promise<GateInput> {
  const t = from.find((x) => x.name === name);
  if (t === undefined) throw new Error(`No tool "${name}"`);
  const call = { tool: name, params };
  const c = coerceArgs(t, call);
  if (!c.ok) throw new Error(c.message);
  const preview = t.preview ? await t.preview(c.args, testContext(cwd)) : { kind: "none" as const };
  return { call, tool: t, args: c.args, preview, cwd };
}
