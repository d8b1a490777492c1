/**
 * What the layered scanner makes of what its layers found: whether a
 * canonical read takes its span, a canonical call with XML entities decided,
 * and the error for several calls.
 *
 * @module
 */
import type { ParseResult, ToolSpec } from "../../interfaces/tool.ts";
import type { DialectHit } from "./dialect_hits.ts";
import type { Span } from "./dialect_mask.ts";
import { withEntities } from "./dialect_call.ts";

/** Whether the canonical scanner read a call (or a failed one with a tool name) worth its span. */
export function takesSpan(r: ParseResult): boolean {
  return r.kind === "call" || (r.kind === "error" && r.tool !== undefined);
}

/** A canonical call, with XML entities decided for command tools. */
export function canonical(r: ParseResult, specs: ReadonlyMap<string, ToolSpec>): ParseResult {
  if (r.kind !== "call") return r;
  const tool = specs.get(r.call.tool);
  return tool === undefined ? r : withEntities(r, tool);
}

/** The reply's prose from `shown` on, without the call at `hit` (a call in another dialect). */
export function proseWithout(text: string, shown: number, hit: Span): string {
  return shown > hit.start
    ? text.slice(Math.max(shown, hit.end))
    : text.slice(shown, hit.start) + text.slice(hit.end);
}

/** The error for a reply holding several calls, naming their dialects. */
export function multiple(hits: readonly DialectHit[]): ParseResult {
  const first = hits[0].result;
  const tool = first.kind === "call"
    ? first.call.tool
    : first.kind === "error"
    ? first.tool
    : undefined;
  const meant = first.kind === "call"
    ? first.call
    : first.kind === "error"
    ? first.meant
    : undefined;
  const names = hits.map((h) => h.dialect).join(", ");
  const message = `The reply holds ${hits.length} tool calls (${names}); none was run`;
  return {
    kind: "error",
    error: "multiple_tool_calls",
    message,
    ...(tool === undefined ? {} : { tool }),
    ...(meant === undefined ? {} : { meant }),
  };
}
