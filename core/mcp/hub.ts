/**
 * The MCP servers of one session. {@link McpHub.start} starts them all at
 * once, in the background, each within its time limit (when is the caller's
 * choice, see `session.ts`), so the first request is not held. Their tools appear in the
 * catalogue as soon as they are known: from the cache of the last listing
 * (`<home>/cache/mcp_tools.json`), so the first request already lists them,
 * then from the live server. A call to a server that is still starting waits
 * for it (its time limit at most); a server that failed, crashed or hangs
 * gives the model an error result and the user one line.
 *
 * @example
 * ```ts
 * const hub = new McpHub(config.servers, { logsDir, version, cacheFile, notify: warn });
 * await hub.loadCache();
 * hub.start();
 * hub.tools(); // AnyTool[] for the parser, gates and dispatcher
 * await hub.close();
 * ```
 * @module
 */
import type { HubOptions, ServerState, ServerView } from "./hub_types.ts";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { AnyTool, ToolResult } from "../../interfaces/tool.ts";
import type { ServerConfig } from "./config.ts";
import type { Connection } from "./connect.ts";
import { loadValidator } from "./args.ts";
import { stderrLogPath } from "./log_path.ts";
import { type AdaptedTool, adaptTool } from "./tool.ts";
import { aborted, callServerTool, cancelled, fail, oneLine } from "./call.ts";
import { cacheKey, readToolCache, writeToolCache } from "./cache.ts";

export type { HubOptions, ServerState, ServerView };

interface Entry {
  config: ServerConfig;
  state: ServerState;
  conn: Connection | null;
  starting: Promise<void> | null;
  tools: AdaptedTool[];
  transport: string;
  error?: string;
  closing: boolean;
  /** Stopped after it had started; it is started again once, on the next call. */
  crashed: boolean;
  restarted: boolean;
}

/** The servers of a session, their tools and calls. */
export class McpHub {
  #entries = new Map<string, Entry>();
  #listeners: (() => void)[] = [];
  #writes: Promise<void> = Promise.resolve();
  #closing = new AbortController();
  #known = new Set<Entry>();
  #onUnload = () => this.#killNow();

  constructor(servers: readonly ServerConfig[], private readonly o: HubOptions) {
    for (const config of servers) {
      const failed = config.problem !== undefined;
      this.#entries.set(config.name, {
        config,
        state: config.disabled ? "disabled" : failed ? "failed" : "starting",
        conn: null,
        starting: null,
        tools: [],
        transport: config.transport,
        error: config.problem,
        closing: false,
        crashed: false,
        restarted: false,
      });
    }
  }

  /** Reads the cached tool lists, so the catalogue is known before the servers answer. */
  async loadCache(): Promise<void> {
    if (!this.o.cacheFile) return;
    const cache = await readToolCache(this.o.cacheFile);
    for (const e of this.#entries.values()) {
      const hit = cache[e.config.name];
      if (e.state === "starting" && hit && hit.key === cacheKey(e.config)) {
        e.tools = hit.tools.map((t) => this.#adapt(e, t));
        this.#known.add(e);
      }
    }
  }

  /** Servers about to start whose tools are not known yet (no cached list). */
  unknown(): string[] {
    return [...this.#entries.values()]
      .filter((e) => e.state === "starting" && !this.#known.has(e))
      .map((e) => e.config.name);
  }

  /** Starts every enabled server in the background, in parallel. */
  start(): void {
    globalThis.addEventListener("unload", this.#onUnload);
    for (const e of this.#entries.values()) {
      if (e.state === "starting" && !e.starting) e.starting = this.#connect(e);
    }
  }

  /** Resolves when the named servers (default: all) are no longer starting. */
  async settled(names?: readonly string[]): Promise<void> {
    const entries = [...this.#entries.values()];
    const picked = names ? entries.filter((e) => names.includes(e.config.name)) : entries;
    await Promise.all(picked.map((e) => e.starting));
  }

  /** Called whenever the catalogue or a server's state changes. */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /**
   * Every tool known: of servers ready or starting (from the cache), and of
   * servers that failed, so a call to one gets a clear error rather than
   * "unknown tool" (the prompt lists only the usable ones).
   */
  tools(): AnyTool[] {
    return this.adapted().map((a) => a.tool);
  }

  /** The adapted tools, with what describing them needs. */
  adapted(): AdaptedTool[] {
    return [...this.#entries.values()].flatMap((e) => e.state === "disabled" ? [] : e.tools);
  }

  /** The servers and their state. */
  servers(): ServerView[] {
    return [...this.#entries.values()].map((e) => ({
      name: e.config.name,
      config: e.config,
      state: e.state,
      transport: e.transport,
      tools: e.tools,
      error: e.error,
      restartable: e.state === "failed" && e.crashed && !e.restarted,
      log: e.config.transport === "stdio"
        ? stderrLogPath(this.o.logsDir, e.config.name)
        : undefined,
    }));
  }

  /** Closes every connection; stdio servers are stopped. */
  async close(): Promise<void> {
    globalThis.removeEventListener("unload", this.#onUnload);
    const entries = [...this.#entries.values()];
    for (const e of entries) e.closing = true;
    this.#closing.abort();
    await Promise.all(entries.map(async (e) => {
      await e.starting?.catch(() => {});
      await e.conn?.close();
    }));
  }

  async #connect(e: Entry): Promise<void> {
    let conn: Connection | undefined;
    try {
      // The SDK loads only when a server is configured, and not before the session is open.
      const [{ connectServer }] = await Promise.all([import("./connect.ts"), loadValidator()]);
      if (e.closing) throw new Error("start given up: minoc is closing");
      conn = await connectServer(e.config, {
        logsDir: this.o.logsDir,
        version: this.o.version,
        onClose: () => this.#lost(e, conn),
        signal: this.#closing.signal,
      });
      if (e.closing) return void await conn.close();
      e.conn = conn;
      e.state = "ready";
      e.transport = conn.transport;
      const listed = conn.tools;
      e.tools = listed.map((t) => this.#adapt(e, t));
      await this.#remember(e.config, listed);
    } catch (err) {
      e.state = "failed";
      e.error = `did not start: ${oneLine(err)}`;
      if (!e.closing) this.#tell(e);
    } finally {
      e.starting = null;
      this.#changed();
    }
  }

  #lost(e: Entry, conn: Connection | undefined): void {
    if (e.closing || (conn && e.conn !== conn) || e.state !== "ready") return;
    e.state = "failed";
    e.error = "stopped (the server exited or closed the connection)" +
      (e.restarted ? "" : "; it is started again on the next call of one of its tools");
    e.crashed = true;
    e.conn = null;
    this.#tell(e);
    this.#changed();
  }

  #tell(e: Entry): void {
    const log = e.config.transport === "stdio"
      ? `; its output is in "${stderrLogPath(this.o.logsDir, e.config.name)}"`
      : "";
    this.o.notify?.(`MCP server "${e.config.name}" ${e.error}${log}`);
  }

  #adapt(e: Entry, t: McpTool): AdaptedTool {
    const adapted: AdaptedTool = adaptTool(
      e.config.name,
      e.config.readOnly,
      t,
      (args, signal) => this.#call(e, adapted.tool.name, t.name, args, signal),
    );
    return adapted;
  }

  async #call(
    e: Entry,
    name: string,
    original: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    if (e.state === "failed" && e.crashed && !e.restarted && !e.closing) {
      // One new start after a crash: a server that dies again stays down.
      e.restarted = true;
      e.state = "starting";
      e.error = undefined;
    }
    if (e.state === "starting" && !e.starting) e.starting = this.#connect(e); // not started yet
    if (e.starting) await Promise.race([e.starting, aborted(signal)]);
    if (signal.aborted) return cancelled(name);
    const conn = e.conn;
    if (e.state !== "ready" || !conn) {
      return fail(
        "server_unavailable",
        `MCP server "${e.config.name}" is not available: ${e.error ?? e.state}. ` +
          "Its tools cannot be used in this session; do the task another way or tell the user.",
      );
    }
    return await callServerTool(conn.client, {
      server: e.config.name,
      name,
      original,
      args,
      signal,
      limitMs: e.config.callTimeoutMs,
    });
  }

  /** Updates this server's entry in the cache file, keeping the others' (one write at a time). */
  #remember(config: ServerConfig, tools: McpTool[]): Promise<void> {
    const file = this.o.cacheFile;
    if (!file) return Promise.resolve();
    this.#writes = this.#writes.then(async () => {
      const cache = await readToolCache(file);
      cache[config.name] = { key: cacheKey(config), tools };
      await writeToolCache(file, cache);
    }).catch(() => {});
    return this.#writes;
  }

  #changed(): void {
    for (const l of this.#listeners) {
      try {
        l();
      } catch { /* a listener's problem is its own */ }
    }
  }

  #killNow(): void {
    for (const e of this.#entries.values()) {
      const pid = e.conn?.pid;
      if (!pid) continue;
      try {
        Deno.kill(pid, "SIGTERM");
      } catch { /* already gone */ }
    }
  }
}
