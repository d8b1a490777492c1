/**
 * `chmod`: changes the permission bits of a file or directory (Unix only).
 *
 * `mode` is octal (`755`, `0644`) or symbolic like chmod(1): comma-separated
 * clauses `[ugoa]*[+-=][rwxXst]*`, e.g. `+x`, `u+x,go-w`, `a=r`. A clause with
 * no `ugoa` applies to all (the umask is not consulted).
 *
 * @module
 */
import { resolve } from "node:path";
import * as z from "zod";
import type { ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { defineTool, fail, ok } from "./define.ts";

const OCTAL = /^(?:0o)?([0-7]{3,4})$/;
const CLAUSE = /^([ugoa]*)((?:[-+=][rwxXst]*)+)$/;
const WHO: Record<string, number> = { u: 0o4700, g: 0o2070, o: 0o1007, a: 0o7777 };
const PERM: Record<string, number> = { r: 0o444, w: 0o222, x: 0o111, s: 0o6000, t: 0o1000 };

const schema = z.object({
  path: z.string().trim().min(1, "the path is empty"),
  mode: z.string().trim().min(1, "the mode is empty"),
});

type Args = z.infer<typeof schema>;

/** Changes a file's mode bits. */
export const chmod = defineTool<Args>({
  name: "chmod",
  kind: "write",
  description: "Change permission bits (Unix): 755, +x, go-w…",
  params: [
    { name: "path", description: "File or folder", required: true },
    { name: "mode", description: "e.g. 755 or +x", required: true },
  ],
  schema,
  example: { path: "scripts/build.sh", mode: "755" },
  execute: change,
});

async function change(args: Args, ctx: ToolContext): Promise<ToolResult> {
  if (Deno.build.os === "windows") {
    return fail("unsupported", "chmod is not supported on Windows: files there have no mode bits");
  }
  const path = resolve(ctx.cwd, args.path);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (e) {
    return cannot(args.path, e);
  }
  const before = (info.mode ?? 0) & 0o7777;
  const after = parseMode(args.mode, before, info.isDirectory);
  if (typeof after === "string") return fail("invalid_args", after);
  try {
    await Deno.chmod(path, after);
  } catch (e) {
    return cannot(args.path, e);
  }
  const from = before.toString(8).padStart(3, "0");
  const to = after.toString(8).padStart(3, "0");
  return ok(
    `Changed the mode of "${args.path}" from ${from} to ${to}`,
    `${args.path}: ${from} → ${to}`,
  );
}

function cannot(path: string, e: unknown): ToolResult {
  if (e instanceof Deno.errors.NotFound) {
    return fail("not_found", `Cannot chmod "${path}": no such file or directory`);
  }
  if (e instanceof Deno.errors.PermissionDenied) {
    return fail("permission_denied", `Cannot chmod "${path}": permission denied`);
  }
  return fail("io_error", `Cannot chmod "${path}": ${e instanceof Error ? e.message : String(e)}`);
}

/**
 * The new mode bits for `mode` applied to `current`, or an error message.
 * `isDirectory` decides what `X` means.
 */
export function parseMode(mode: string, current: number, isDirectory: boolean): number | string {
  const octal = OCTAL.exec(mode);
  if (octal) return parseInt(octal[1], 8);
  let bits = current;
  for (const clause of mode.split(",")) {
    const m = CLAUSE.exec(clause);
    if (!m) {
      return `Mode "${mode}" is not valid: use octal like 755 or symbolic like u+x,go-w`;
    }
    const who = [...(m[1] || "a")].reduce((acc, c) => acc | WHO[c], 0);
    for (const op of m[2].match(/[-+=][rwxXst]*/g) ?? []) {
      bits = applyOp(bits, who, op, isDirectory);
    }
  }
  return bits;
}

function applyOp(bits: number, who: number, op: string, isDirectory: boolean): number {
  let perm = 0;
  for (const c of op.slice(1)) {
    if (c === "X") perm |= isDirectory || (bits & 0o111) !== 0 ? 0o111 : 0;
    else perm |= PERM[c];
  }
  perm &= who;
  if (op[0] === "+") return bits | perm;
  if (op[0] === "-") return bits & ~perm;
  return (bits & ~who) | perm;
}
