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
import { loadMcpConfig, type ServerConfig } from "./config.ts";
import { McpHub } from "./hub.ts";
import { toolCachePath } from "./cache.ts";
import { describeTools, renderMcpSection } from "./catalog.ts";
import { projectMcpTrusted } from "./trust.ts";

/** The longest a first request waits for servers seen for the first time; they go on starting. */
export const FIRST_USE_WAIT_MS = 10_000;

/** What opening needs. */
export interface OpenMcpOptions {
  homeDir: string;
  cwd: string;
  logsDir: string;
  version: string;
  /** One line for the user. */
  warn(line: string): void;
  /** Overrides the trust check (tests). */
  projectTrusted?: boolean;
  /** Servers named by the caller (an editor over ACP); a configured server of the same name wins. */
  extraServers?: ServerConfig[];
  /**
   * `run`: when a server's tools are not known yet (no cached list: its
   * first use), start now and wait for such servers ({@link FIRST_USE_WAIT_MS}
   * at most), so the first request can list their tools. Known servers never wait.
   */
  waitForNew?: boolean;
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
  /** Starts the servers in the background (once; later calls do nothing). */
  start(): void;
  /**
   * Whether a request is running. A server's failure is told at once while
   * one is; while the chat waits for the user it is held until the next
   * request starts, so it never lands in the middle of the line being typed.
   */
  busy(running: boolean): void;
  close(): Promise<void>;
}

/**
 * Loads the configuration and the cached tool lists; {@link McpSession.start}
 * starts the servers. The SDK is loaded only then, so a session without
 * servers never loads it.
 */
export async function openMcp(o: OpenMcpOptions): Promise<McpSession> {
  const projectTrusted = o.projectTrusted ?? await projectMcpTrusted(o.homeDir, o.cwd);
  const config = await loadMcpConfig({ homeDir: o.homeDir, cwd: o.cwd, projectTrusted });
  for (const w of config.warnings) o.warn(w);
  for (const extra of o.extraServers ?? []) {
    if (config.servers.some((s) => s.name === extra.name)) {
      o.warn(`MCP server "${extra.name}" from the editor is left out: ${extra.file} names it too`);
    } else config.servers.push(extra);
  }
  let running = false;
  const held: string[] = [];
  const hub = new McpHub(config.servers, {
    logsDir: o.logsDir,
    version: o.version,
    cacheFile: toolCachePath(o.homeDir),
    notify: (line) => running ? o.warn(line) : held.push(line),
  });
  for (const s of hub.servers()) {
    if (s.state === "failed") o.warn(s.error ?? `MCP server "${s.name}" cannot start`);
  }
  await hub.loadCache();
  let started = false;
  const fresh = hub.unknown();
  if (o.waitForNew && fresh.length > 0) {
    started = true;
    hub.start();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<void>((resolve) => timer = setTimeout(resolve, FIRST_USE_WAIT_MS));
    await Promise.race([hub.settled(fresh), limit]);
    clearTimeout(timer);
  }
  const active = config.servers.length > 0;
  return {
    hub,
    active,
    tools: () => active ? [...mcpTools, ...hub.tools()] : [],
    section: (mode) => renderMcpSection(hub.servers(), mode),
    directory: { describe: (names) => describeTools(hub.servers(), names) },
    onChange: (l) => hub.onChange(l),
    busy: (next) => {
      running = next;
      if (next) { for (const line of held.splice(0)) o.warn(line); }
    },
    start: () => {
      if (started || !active) return;
      started = true;
      hub.start();
    },
    close: () => hub.close(),
  };
}
