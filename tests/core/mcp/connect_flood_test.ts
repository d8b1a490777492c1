/**
 * A remote MCP server that answers with bytes without end (one event that
 * never ends) is cut off at a bound: reading stops there, and the start
 * fails at its time limit, instead of memory filling until then.
 */
import assert from "node:assert/strict";
import { connectServer } from "../../../core/mcp/connect.ts";
import type { ServerConfig } from "../../../core/mcp/config.ts";

Deno.test("connectServer(): a server flooding one event is read up to the bound only", async () => {
  const piece = new TextEncoder().encode("x".repeat(1 << 20));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('event: message\ndata: {"jsonrpc":"2.0","id":0,"r'));
      },
      pull(c) {
        c.enqueue(piece);
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  const config: ServerConfig = {
    name: "flood",
    source: "home",
    file: "mcp.json",
    transport: "http",
    args: [],
    env: {},
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    headers: {},
    readOnly: false,
    disabled: false,
    startupTimeoutMs: 8_000,
    callTimeoutMs: 60_000,
  };
  const logsDir = await Deno.makeTempDir();
  try {
    const before = Deno.memoryUsage().rss;
    let peak = before;
    const poll = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 100);
    try {
      await assert.rejects(
        () => connectServer(config, { logsDir, version: "0", onClose() {} }),
        /did not start within 8 s/,
      );
    } finally {
      clearInterval(poll);
    }
    // Unbounded, 8 s of loopback fill gigabytes; bounded, 64 MB and the buffers around it.
    const grown = (peak - before) / (1 << 20);
    assert.ok(grown < 512, `memory grew by ${Math.round(grown)} MB`);
  } finally {
    await server.shutdown();
    await Deno.remove(logsDir, { recursive: true });
  }
});
