/**
 * One MCP server tool as a minoc {@link Tool}: named `mcp__<server>__<tool>`,
 * parameters from its JSON Schema, kind `exec` (it acts outside minoc, so it
 * asks, is refused in plan mode and is only listed by dry-run), marked
 * `external` with its read-only flag (the `readOnlyHint` annotation, or the
 * server marked `readOnly` in mcp.json) so plan mode may let it run.
 *
 * @module
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { AnyTool, ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { argsSchema, type JsonSchema, type McpParam, schemaParams } from "./args.ts";
import { mcpToolName } from "../protocol/mcp_names.ts";

/** Runs a call on the server (the hub's side). */
export type McpCaller = (
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<ToolResult>;

/** A minoc tool made from a server's tool, with what describing it needs. */
export interface AdaptedTool {
  tool: AnyTool;
  server: string;
  /** The tool's name on its server. */
  original: string;
  params: McpParam[];
  readOnly: boolean;
}

/** Adapts `t` of `server`; `readOnlyServer` is the server's `readOnly` flag. */
export function adaptTool(
  server: string,
  readOnlyServer: boolean,
  t: McpTool,
  call: McpCaller,
): AdaptedTool {
  const input = (t.inputSchema ?? { type: "object" }) as JsonSchema;
  const params = schemaParams(input);
  const readOnly = readOnlyServer || t.annotations?.readOnlyHint === true;
  const tool: AnyTool = Object.freeze({
    name: mcpToolName(server, t.name),
    kind: "exec" as const,
    description: t.description ?? t.title ?? t.annotations?.title ?? t.name,
    params: params.map((p) => p.spec),
    schema: argsSchema(input, params),
    example: Object.fromEntries(
      params.filter((p) => p.spec.required || params.length <= 3)
        .map((p) => [p.spec.name, sampleValue(p.schema)]),
    ),
    external: { source: "mcp" as const, server, tool: t.name, readOnly },
    execute: (args: Record<string, unknown>, ctx: ToolContext) => call(args, ctx.signal),
  });
  return { tool, server, original: t.name, params, readOnly };
}

/** A plausible value for an example call. */
function sampleValue(schema: JsonSchema): string {
  if (schema.default !== undefined) return toText(schema.default);
  if (Array.isArray(schema.enum) && schema.enum.length) return toText(schema.enum[0]);
  const t = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (t) {
    case "integer":
    case "number":
      return "1";
    case "boolean":
      return "true";
    case "array":
      return "[]";
    case "object":
      return "{}";
    default:
      return "text";
  }
}

function toText(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}
