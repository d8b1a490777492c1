/**
 * MCP servers an editor passes in `session/new` / `session/load`: checked
 * here (names, absolute commands, transports minoc announced), connected by
 * {@link connectClientMcpServers}.
 *
 * @example
 * ```ts
 * const servers = checkMcpServers(params.mcpServers); // throws RequestError.invalidParams
 * await connectClientMcpServers(servers, session);
 * ```
 * @module
 */
import { isAbsolute } from "node:path";
import { type McpServer, RequestError } from "@agentclientprotocol/sdk";
import type { AgentSession } from "../session.ts";

/** A stdio MCP server as the editor described it, checked. */
export interface ClientMcpServer {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * Checks the servers: each has a unique non-empty name and an absolute
 * command; only stdio is accepted, since minoc announces no `http` or `sse`
 * MCP capability. Throws an invalid-params error naming the server.
 */
export function checkMcpServers(servers: readonly McpServer[] | undefined): ClientMcpServer[] {
  const out: ClientMcpServer[] = [];
  const names = new Set<string>();
  (servers ?? []).forEach((s, i) => {
    const at = `mcpServers[${i}]`;
    const bad = (detail: string) =>
      RequestError.invalidParams({ field: at }, `${at} "${s.name ?? ""}": ${detail}`);
    if ("type" in s && (s.type === "http" || s.type === "sse")) {
      throw bad(`transport "${s.type}" is not supported: minoc connects stdio MCP servers only`);
    }
    const stdio = s as Extract<McpServer, { command: string }>;
    if (typeof stdio.name !== "string" || stdio.name.trim() === "") throw bad("name is empty");
    if (names.has(stdio.name)) throw bad("the name is used twice");
    if (!isAbsolute(stdio.command)) {
      throw bad(`command "${stdio.command}" must be an absolute path`);
    }
    names.add(stdio.name);
    const env: Record<string, string> = {};
    for (const e of stdio.env ?? []) env[e.name] = e.value;
    out.push({ name: stdio.name, command: stdio.command, args: [...(stdio.args ?? [])], env });
  });
  return out;
}

/**
 * Connects the editor's MCP servers to an open session, so their tools pass
 * the same gates as minoc's own. Returns a note for the user about servers
 * that are not connected.
 *
 * TODO(mcp): wire the MCP client from `core/mcp/` here once it is merged:
 * start each server, list its tools, add them to `session.deps.tools`, and
 * close them in the session's close. Until then no server is connected.
 */
export function connectClientMcpServers(
  servers: readonly ClientMcpServer[],
  _session: AgentSession,
): Promise<string | null> {
  if (servers.length === 0) return Promise.resolve(null);
  const list = servers.map((s) => `"${s.name}"`).join(", ");
  return Promise.resolve(
    `MCP servers from the editor are not connected yet (${list}): this build of minoc has no MCP client`,
  );
}
