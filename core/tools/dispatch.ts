/**
 * Cross-cutting work around every tool call, written once: turning raw XML
 * strings into typed arguments, catching exceptions, capping output.
 *
 * @module
 */
import type { AnyTool, ToolCall, ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { fail } from "./define.ts";

/** Output longer than this (characters) is cut for the model, head and tail kept. */
export const MAX_OUTPUT_CHARS = 60_000;

/** Typed arguments, or what was wrong with the raw ones. */
export type Coerced = { ok: true; args: unknown } | { ok: false; message: string };

/**
 * Reads the raw parameter strings of `call` as `tool` declares them and
 * validates them with the tool's schema. Unknown parameters are ignored.
 */
export function coerceArgs(tool: AnyTool, call: ToolCall): Coerced {
  const raw: Record<string, unknown> = {};
  for (const spec of tool.params) {
    const value = call.params[spec.name];
    if (value === undefined) {
      if (spec.required) return { ok: false, message: `missing parameter <${spec.name}>` };
      continue;
    }
    const values = Array.isArray(value) ? value : [value];
    const read: unknown[] = [];
    for (const v of values) {
      const r = readValue(v, spec.type ?? "string");
      if (!r.ok) return { ok: false, message: `<${spec.name}>${v}</${spec.name}>: ${r.message}` };
      read.push(r.value);
    }
    raw[spec.name] = spec.multiple ? read : read[read.length - 1];
  }
  // Without zod's generated fast path: compiling it costs more than one call's parse saves.
  const parsed = tool.schema.safeParse(raw, { jitless: true });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) =>
      `${i.path.join(".") || "arguments"}: ${i.message}`
    );
    return { ok: false, message: issues.join("; ") };
  }
  return { ok: true, args: parsed.data };
}

function readValue(
  v: string,
  type: "string" | "boolean" | "integer",
): { ok: true; value: unknown } | { ok: false; message: string } {
  if (type === "string") return { ok: true, value: v };
  const t = v.trim();
  if (type === "boolean") {
    if (/^true$/i.test(t)) return { ok: true, value: true };
    if (/^false$/i.test(t)) return { ok: true, value: false };
    return { ok: false, message: "expected true or false" };
  }
  if (/^-?\d+$/.test(t)) return { ok: true, value: Number(t) };
  return { ok: false, message: "expected a whole number" };
}

/** Runs a tool: exceptions become error results, long output is capped. */
export async function runTool(
  tool: AnyTool,
  args: unknown,
  ctx: ToolContext,
): Promise<ToolResult> {
  let result: ToolResult;
  try {
    result = await tool.execute(args, ctx);
  } catch (e) {
    if (ctx.signal.aborted) return fail("aborted", `${tool.name} was cancelled by the user`);
    result = fail("exception", `${tool.name} failed: ${errorText(e)}`);
  }
  return { ...result, output: capText(result.output, MAX_OUTPUT_CHARS) };
}

/** Keeps the head and tail of a long text and says how much was left out. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  const dropped = text.slice(half, text.length - half);
  const lines = dropped.split("\n").length - 1;
  return `${
    text.slice(0, half)
  }\n[... ${dropped.length} characters (${lines} lines) left out ...]\n${
    text.slice(text.length - half)
  }`;
}

/** A readable one-line message for any thrown value. */
export function errorText(e: unknown): string {
  if (e instanceof Deno.errors.NotFound) return `not found (${e.message})`;
  if (e instanceof Deno.errors.PermissionDenied) return `permission denied (${e.message})`;
  return e instanceof Error ? e.message : String(e);
}
