/**
 * Building blocks every tool uses: the definition helper and result makers.
 *
 * @example
 * ```ts
 * export const readFile = defineTool({ name: "read_file", kind: "read", ... });
 * ```
 * @module
 */
import type { Tool, ToolResult } from "../../interfaces/tool.ts";

const NAME = /^[a-z][a-z0-9_]*$/;

/** Checks a tool's definition once, at import time, and returns it frozen. */
export function defineTool<A>(tool: Tool<A>): Tool<A> {
  if (!NAME.test(tool.name)) throw new Error(`Tool name "${tool.name}" must be snake_case`);
  for (const p of tool.params) {
    if (!NAME.test(p.name)) {
      throw new Error(`Tool "${tool.name}": parameter "${p.name}" must be snake_case`);
    }
  }
  return Object.freeze(tool);
}

/** A successful result; `display` defaults to the first line of `output`. */
export function ok(output: string, display?: string): ToolResult {
  return { ok: true, output, display: display ?? firstLine(output) };
}

/** A failed result the model can act on. */
export function fail(code: string, output: string, display?: string): ToolResult {
  return { ok: false, code, output, display: display ?? firstLine(output) };
}

function firstLine(text: string): string {
  const i = text.indexOf("\n");
  return i < 0 ? text : text.slice(0, i);
}
