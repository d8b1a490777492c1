/**
 * A stdio MCP server's stderr log stays bounded while the server runs: the
 * log is moved aside each time it passes its limit (one earlier generation
 * kept), with a server that writes 100 MB a second.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { resolveServer } from "../../../core/mcp/config.ts";
import { McpHub } from "../../../core/mcp/hub.ts";
import { MAX_LOG_BYTES, StderrLog } from "../../../core/mcp/log_path.ts";
import { withTempDir } from "../../support/tool_context.ts";
import { testServer } from "../../support/mcp.ts";

const sizeOf = (path: string) => Deno.stat(path).then((s) => s.size, () => 0);

Deno.test("StderrLog keeps the newest bytes in the log and one generation before", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "s.log");
    await Deno.writeTextFile(path, "old run\n");
    const log = StderrLog.open(path, 100);
    for (let i = 0; i < 30; i++) log.write(`line ${String(i).padStart(2, "0")}\n`); // 8 bytes each
    log.close();
    log.write("after close\n"); // dropped, no throw
    const now = await Deno.readTextFile(path);
    const before = await Deno.readTextFile(`${path}.1`);
    assert.ok(now.length <= 100 && before.length <= 100, `${now.length} / ${before.length}`);
    assert.ok(now.endsWith("line 29\n"), "the newest line is in the log");
    // The generation before ends with the line just before the log's first one.
    const first = Number(/^line (\d+)/.exec(now)?.[1]);
    assert.ok(before.endsWith(`line ${String(first - 1).padStart(2, "0")}\n`), before);
    assert.ok(!now.includes("after close"));
  });
});

Deno.test("a stdio server writing stderr without end fills at most two logs' worth of disk", async () => {
  await withTempDir(async (dir) => {
    const raw = testServer(`marker-${crypto.randomUUID()}`, "--chatty");
    const hub = new McpHub([resolveServer("loud", raw as never, "home", "/t/mcp.json", {})], {
      logsDir: join(dir, "logs"),
      version: "0.0.0",
    });
    hub.start();
    await hub.settled();
    const log = join(dir, "logs", "mcp", "loud.log");
    try {
      // 100 MB a second: within 2 s the log would hold ~200 MB without its limit.
      const until = Date.now() + 20_000;
      while (!(await Deno.stat(`${log}.1`).then(() => true, () => false))) {
        if (Date.now() > until) throw new Error("the log was never moved aside");
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 2000));
      const total = await sizeOf(log) + await sizeOf(`${log}.1`);
      assert.ok(total <= 2 * MAX_LOG_BYTES + (1 << 20), `the logs hold ${total} bytes`);
    } finally {
      await hub.close();
    }
  });
});
