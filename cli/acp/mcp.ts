/**
 * MCP servers an editor passes in `session/new` / `session/load`: checked
 * here (names, absolute commands, transports minoc announced), then started
 * with the session like configured servers ({@link editorMcpServers}).
 *
 * @example
 * ```ts
 * const servers = checkMcpServers(params.mcpServers); // throws RequestError.invalidParams
 * await openSession({ ...options, mcpServers: editorMcpServers(servers) });
 * ```
 * @module
 */
import { isAbsolute } from "node:path";
import { type McpServer, RequestError } from "@agentclientprotocol/sdk";
import { DEFAULT_CALL_MS, DEFAULT_STARTUP_MS, type ServerConfig } from "../../core/mcp/config.ts";

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
 * The editor's servers as minoc MCP servers: started with the session,
 * their tools gated and shown like every other tool.
 */
export function editorMcpServers(servers: readonly ClientMcpServer[]): ServerConfig[] {
  return servers.map((s) => ({
    name: s.name,
    source: "editor",
    file: "the editor's session request",
    transport: "stdio",
    command: s.command,
    args: s.args,
    env: s.env,
    headers: {},
    readOnly: false,
    disabled: false,
    startupTimeoutMs: DEFAULT_STARTUP_MS,
    callTimeoutMs: DEFAULT_CALL_MS,
  }));
}
