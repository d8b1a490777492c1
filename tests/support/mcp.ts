/**
 * MCP servers for tests: the real npm servers (pinned), the stdio test
 * server beside this file, and a Streamable HTTP server built with the SDK
 * on a loopback port.
 *
 * @module
 */
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import * as z from "zod";
import { ROOT } from "./cli.ts";

/** A first run fetches the npm package: give it time on a slow machine. */
const NPM_START_MS = 180_000;

const EVERYTHING_PKG = "npm:@modelcontextprotocol/server-everything@2026.8.31";
const FILESYSTEM_PKG = "npm:@modelcontextprotocol/server-filesystem@2026.8.31";

/**
 * Fetches the npm servers into Deno's cache, with this process's environment
 * (minoc starts servers with a clean one, which may lack the machine's
 * certificate settings), from outside any project's configuration.
 */
export async function fetchNpmServers(): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["cache", "--quiet", "--no-config", EVERYTHING_PKG, FILESYSTEM_PKG],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`could not fetch the MCP servers: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/** `@modelcontextprotocol/server-everything`, run by Deno from npm. */
export const EVERYTHING = {
  startupTimeoutMs: NPM_START_MS,
  command: Deno.execPath(),
  args: ["run", "-A", "--quiet", EVERYTHING_PKG, "stdio"],
};

/** `@modelcontextprotocol/server-filesystem` for `dir`, run by Deno from npm. */
export function filesystemServer(dir: string) {
  return {
    startupTimeoutMs: NPM_START_MS,
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", FILESYSTEM_PKG, dir],
  };
}

/** The benchmarks' three servers: the test server, `server-everything`, `server-filesystem` for `dir`. */
export function threeServers(dir: string) {
  return { t: testServer(), everything: EVERYTHING, fs: filesystemServer(dir) };
}

/** The stdio test server (`mcp_test_server.ts`) with extra arguments. */
export function testServer(...extra: string[]) {
  return {
    command: Deno.execPath(),
    args: [
      "run",
      "-A",
      "--quiet",
      "--config",
      join(ROOT, "deno.json"),
      join(ROOT, "tests", "support", "mcp_test_server.ts"),
      ...extra,
    ],
  };
}

/** Writes `<minocHome>/config/mcp.json` with `servers`. */
export async function writeMcpConfig(
  minocHome: string,
  servers: Record<string, unknown>,
): Promise<string> {
  const dir = join(minocHome, "config");
  await Deno.mkdir(dir, { recursive: true });
  const file = join(dir, "mcp.json");
  await Deno.writeTextFile(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

/** A running Streamable HTTP MCP server. */
export interface HttpMcp extends AsyncDisposable {
  url: string;
  /** Requests it received (method and the `x-test` header). */
  seen: { method: string; header: string | null }[];
}

/** Starts a stateless Streamable HTTP MCP server with `shout` (read-only) and `count`. */
export function startHttpMcp(): HttpMcp {
  const seen: HttpMcp["seen"] = [];
  const build = () => {
    const s = new McpServer({ name: "http-test", version: "1.0.0" });
    s.registerTool("shout", {
      description: "Says the text in capitals",
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    }, ({ text }: { text: string }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }));
    s.registerTool("count", {
      description: "Counts up to n",
      inputSchema: { n: z.number().int() },
    }, ({ n }: { n: number }) => ({
      content: [{ type: "text", text: Array.from({ length: n }, (_, i) => i + 1).join(" ") }],
    }));
    return s;
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    seen.push({ method: req.method, header: req.headers.get("x-test") });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const mcp = build();
    await mcp.connect(transport);
    const res = await transport.handleRequest(req);
    return res;
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    seen,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** A running MCP server that speaks only the older HTTP+SSE transport. */
export interface SseMcp extends AsyncDisposable {
  /** The SSE endpoint (`/sse`). */
  url: string;
}

/** Starts an HTTP+SSE-only MCP server (node:http and the SDK's SSE transport) with `shout`. */
export async function startSseMcp(): Promise<SseMcp> {
  const { createServer } = await import("node:http");
  const { SSEServerTransport } = await import("@modelcontextprotocol/sdk/server/sse.js");
  const transports = new Map<string, InstanceType<typeof SSEServerTransport>>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      transports.set(transport.sessionId, transport);
      const mcp = new McpServer({ name: "sse-test", version: "1.0.0" });
      mcp.registerTool(
        "shout",
        {
          description: "Says the text in capitals",
          inputSchema: { text: z.string() },
        },
        ({ text }: { text: string }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
      );
      await mcp.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/messages" && transport) {
      return await transport.handlePostMessage(req, res);
    }
    res.writeHead(405).end("only HTTP+SSE here");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
