/**
 * Opens one MCP connection with the official SDK: a stdio child process
 * (its stderr appended to a log file) or a Streamable HTTP endpoint, falling
 * back to the older HTTP+SSE transport when the server does not speak it.
 * Connecting and listing the tools share one time limit.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import type { ServerConfig } from "./config.ts";
import { StderrLog, stderrLogPath } from "./log_path.ts";
import { oneLine } from "./call.ts";
import { boundedFetch } from "../llm/bounded_body.ts";
import { serverEnv } from "./server_env.ts";

/** An MCP server's answers: a tool's result may be large, but not without end (bytes). */
const MCP_BODY_LIMITS = { event: 64 << 20, other: 64 << 20, streams: true };

/** A live connection to one server. */
export interface Connection {
  client: Client;
  tools: McpTool[];
  /** The child's process id (stdio), for the exit-time kill. */
  pid: number | null;
  /** `stdio`, `http` or `sse` (after a fallback). */
  transport: "stdio" | "http" | "sse";
  close(): Promise<void>;
}

/** What a connection needs besides the server's entry. */
export interface ConnectOptions {
  /** `<home>/logs`: stdio servers' stderr goes to `mcp/<name>.log` in it. */
  logsDir: string;
  /** minoc's version, told to the server. */
  version: string;
  /** Called when the connection ends (crash, exit, close). */
  onClose(): void;
  /** Gives up the start (minoc is closing): the server is stopped at once. */
  signal?: AbortSignal;
}

/** Connects and lists the tools within `server.startupTimeoutMs`; throws with a one-line reason. */
export async function connectServer(
  server: ServerConfig,
  o: ConnectOptions,
): Promise<Connection> {
  const { logsDir, onClose } = o;
  const client = new Client({ name: "minoc", version: o.version });
  let transport: Transport | null = null;
  const closeAll = async (now = false) => {
    const pid = transport instanceof StdioClientTransport ? transport.pid : null;
    if (now && pid) {
      try {
        Deno.kill(pid, "SIGTERM");
      } catch { /* already gone */ }
    }
    await client.close().catch(() => {});
    await transport?.close().catch(() => {});
  };
  let gaveUp = false;
  const work = async (): Promise<Connection> => {
    let kind = server.transport;
    if (server.transport === "stdio") {
      const stdio = await stdioTransport(server, logsDir);
      // Given up meanwhile (time limit, minoc closing): spawn nothing that no one would stop.
      if (gaveUp) throw new Error("given up");
      transport = stdio;
      await client.connect(transport);
    } else {
      const url = new URL(server.url!);
      const init = { headers: server.headers };
      // A server's answers are bounded before the SDK buffers them (see bounded_body.ts).
      const fetch = boundedFetch(globalThis.fetch, MCP_BODY_LIMITS);
      if (kind === "http") {
        try {
          transport = new StreamableHTTPClientTransport(url, { requestInit: init, fetch });
          await client.connect(transport);
        } catch (e) {
          await transport?.close().catch(() => {});
          if (!fallbackWorthy(e)) throw e;
          kind = "sse";
        }
      }
      if (kind === "sse") {
        transport = new SSEClientTransport(url, { requestInit: init, fetch });
        await client.connect(transport);
      }
    }
    client.onclose = onClose;
    const tools = await listAllTools(client, server.startupTimeoutMs);
    const pid = transport instanceof StdioClientTransport ? transport.pid : null;
    return { client, tools, pid, transport: kind, close: () => closeAll() };
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`did not start within ${server.startupTimeoutMs / 1000} s`)),
      server.startupTimeoutMs,
    );
    onAbort = () => reject(new Error("start given up: minoc is closing"));
    if (o.signal?.aborted) onAbort();
    o.signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work(), limit]);
  } catch (e) {
    gaveUp = true;
    await closeAll(true);
    throw new Error(oneLine(e));
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener("abort", onAbort);
  }
}

async function stdioTransport(server: ServerConfig, logsDir: string): Promise<Transport> {
  const transport = new StdioClientTransport({
    command: server.command!,
    args: server.args,
    env: serverEnv(server.env),
    cwd: server.cwd,
    stderr: "pipe",
  });
  await Deno.mkdir(join(logsDir, "mcp"), { recursive: true }).catch(() => {});
  // One earlier generation is kept, while the server runs too: a chatty server cannot fill the disk.
  const log = StderrLog.open(stderrLogPath(logsDir, server.name));
  log.write(`\n--- ${new Date().toISOString()} ${server.command} ${server.args.join(" ")}\n`);
  const stream = transport.stderr;
  if (stream) {
    stream.on("data", (chunk: Uint8Array | string) => log.write(chunk));
    stream.on("close", () => log.close());
  } else log.close();
  return transport;
}

async function listAllTools(client: Client, timeout: number): Promise<McpTool[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const out: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const r = await client.listTools(cursor ? { cursor } : {}, { timeout });
    out.push(...r.tools);
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return out;
}

/** A Streamable HTTP failure that an older SSE-only server would give (4xx, not auth). */
function fallbackWorthy(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  if (typeof code === "number") return code >= 400 && code < 500 && code !== 401 && code !== 403;
  return /\b(404|405|400)\b/.test(String((e as Error)?.message ?? e));
}
