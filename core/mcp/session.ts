/**
 * MCP for one agent session: loads both mcp.json files, starts the servers
 * in the background and offers what the session needs — the tools for the
 * parser and the gates, the prompt section, `mcp_describe`'s directory, and
 * a close that stops every server process.
 *
 * @example
 * ```ts
 * const mcp = await openMcp({ homeDir, cwd, logsDir, version, warn });
 * mcp.onChange(() => rebuildPrompt());
 * const tools = [...coreTools, ...mcp.tools()];
 * ```
 * @module
 */
import type { AnyTool, McpDirectory } from "../../interfaces/tool.ts";
import { mcpTools } from "../tools/mod.ts";
import { loadMcpConfig } from "./config.ts";
import { McpHub } from "./hub.ts";
import { toolCachePath } from "./cache.ts";
import { describeTools, renderMcpSection } from "./catalog.ts";
import { projectMcpTrusted } from "./trust.ts";

/** What opening needs. */
export interface OpenMcpOptions {
  homeDir: string;
  cwd: string;
  logsDir: string;
  version: string;
  /** One line for the user. */
  warn(line: string): void;
  /** Overrides the trust check (tests, and the coordinator's wiring). */
  projectTrusted?: boolean;
}

/** The MCP side of a session. */
export interface McpSession {
  hub: McpHub;
  /** Whether any server is configured (else nothing MCP is offered). */
  active: boolean;
  /** `mcp_describe` plus every server tool known now. */
  tools(): AnyTool[];
  /** The "# MCP tools" section for the system prompt ("" when inactive). */
  section(mode: "agent" | "plan"): string;
  directory: McpDirectory;
  onChange(listener: () => void): void;
  close(): Promise<void>;
}

/** Loads the configuration and starts the servers without waiting for them. */
export async function openMcp(o: OpenMcpOptions): Promise<McpSession> {
  const projectTrusted = o.projectTrusted ?? await projectMcpTrusted(o.homeDir, o.cwd);
  const config = await loadMcpConfig({ homeDir: o.homeDir, cwd: o.cwd, projectTrusted });
  for (const w of config.warnings) o.warn(w);
  const hub = new McpHub(config.servers, {
    logsDir: o.logsDir,
    version: o.version,
    cacheFile: toolCachePath(o.homeDir),
    notify: o.warn,
  });
  for (const s of hub.servers()) {
    if (s.state === "failed") o.warn(s.error ?? `MCP server "${s.name}" cannot start`);
  }
  await hub.loadCache();
  hub.start();
  const active = config.servers.length > 0;
  return {
    hub,
    active,
    tools: () => active ? [...mcpTools, ...hub.tools()] : [],
    section: (mode) => renderMcpSection(hub.servers(), mode),
    directory: { describe: (names) => describeTools(hub.servers(), names) },
    onChange: (l) => hub.onChange(l),
    close: () => hub.close(),
  };
}
