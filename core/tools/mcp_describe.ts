/**
 * `mcp_describe`: the full description, parameters and an example call of
 * MCP tools (by tool name) or of every tool of a server (by server name).
 * The system prompt lists MCP tools by name only; this is the second level.
 *
 * @module
 */
import * as z from "zod";
import { defineTool, fail } from "./define.ts";

const schema = z.object({
  name: z.array(z.string().trim().min(1, "must not be empty")).min(1),
});

type Args = z.infer<typeof schema>;

/** Describes MCP tools before the model calls them. */
export const mcpDescribe = defineTool<Args>({
  name: "mcp_describe",
  kind: "meta",
  description:
    "Descriptions, parameters and example calls of MCP tools (by tool or server name); call it before an MCP tool's first use.",
  params: [
    {
      name: "name",
      description: "An MCP tool's name (mcp__server__tool) or a server's name",
      required: true,
      multiple: true,
    },
  ],
  schema,
  example: { name: "mcp__github__create_issue" },
  execute(args, ctx) {
    if (!ctx.mcp) return Promise.resolve(fail("no_mcp", "No MCP servers are configured"));
    return Promise.resolve(ctx.mcp.describe(args.name));
  },
});
