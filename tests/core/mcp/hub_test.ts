/**
 * The MCP hub against real servers: the npm `server-everything` and
 * `server-filesystem` over stdio, the SDK-built test server (crash, hang,
 * cancellation) and a Streamable HTTP server inside the test.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { resolveServer } from "../../../core/mcp/config.ts";
import { McpHub } from "../../../core/mcp/hub.ts";
import type { AnyTool } from "../../../interfaces/tool.ts";
import { callTool, testContext, withTempDir } from "../../support/tool_context.ts";
import {
  EVERYTHING,
  filesystemServer,
  startHttpMcp,
  startSseMcp,
  testServer,
} from "../../support/mcp.ts";

function server(name: string, raw: Record<string, unknown>, env: Record<string, string> = {}) {
  return resolveServer(name, raw as never, "home", "/test/mcp.json", env);
}

async function openHub(dir: string, servers: ReturnType<typeof server>[], notes: string[] = []) {
  const hub = new McpHub(servers, {
    logsDir: join(dir, "logs"),
    version: "0.0.0",
    cacheFile: join(dir, "cache.json"),
    notify: (l) => notes.push(l),
  });
  await hub.loadCache();
  hub.start();
  await hub.settled();
  return hub;
}

function find(tools: AnyTool[], name: string): AnyTool {
  const t = tools.find((x) => x.name === name);
  assert.ok(t, `${name} is not among ${tools.map((x) => x.name).join(", ")}`);
  return t;
}

Deno.test("McpHub lists and calls server-everything's tools over stdio, images described", async () => {
  await withTempDir(async (dir) => {
    const hub = await openHub(dir, [server("everything", EVERYTHING)]);
    try {
      const [view] = hub.servers();
      assert.equal(view.state, "ready", view.error);
      const tools = hub.tools();
      const echo = find(tools, "mcp__everything__echo");
      assert.equal(echo.external?.readOnly, true);
      const r = await callTool(echo, { message: "hello mcp" }, testContext(dir));
      assert.equal(r.ok, true, r.output);
      assert.match(r.output, /hello mcp/);
      const sum = find(tools, "mcp__everything__get-sum");
      const bad = await callTool(sum, { a: "two", b: "3" }, testContext(dir));
      assert.equal(bad.ok, false);
      assert.match(bad.output, /^a: expected number/);
      const good = await callTool(sum, { a: "2", b: "3.5" }, testContext(dir));
      assert.match(good.output, /5\.5/);
      const image = await callTool(
        find(tools, "mcp__everything__get-tiny-image"),
        {},
        testContext(dir),
      );
      assert.match(image.output, /\[image image\/png, [\d.]+ (bytes|KB): not shown\]/);
      assert.ok(image.output.length < 2000, "the image data is not dumped");
      const cache = JSON.parse(await Deno.readTextFile(join(dir, "cache.json")));
      assert.ok(cache.everything.tools.some((t: { name: string }) => t.name === "echo"));
    } finally {
      await hub.close();
    }
  });
});

Deno.test("McpHub calls server-filesystem inside its allowed folder and reports its refusal outside", async () => {
  await withTempDir(async (dir) => {
    const root = join(dir, "files");
    await Deno.mkdir(root);
    await Deno.writeTextFile(join(root, "a.txt"), "alpha text\n");
    const hub = await openHub(dir, [server("fs", filesystemServer(root))]);
    try {
      const read = find(hub.tools(), "mcp__fs__read_text_file");
      const ok = await callTool(read, { path: join(root, "a.txt") }, testContext(dir));
      assert.equal(ok.ok, true, ok.output);
      assert.match(ok.output, /alpha text/);
      const outside = await callTool(read, { path: "/etc/hostname" }, testContext(dir));
      assert.equal(outside.ok, false);
      assert.match(outside.output, /denied|outside|not allowed/i);
      assert.equal(find(hub.tools(), "mcp__fs__write_file").external?.readOnly, false);
    } finally {
      await hub.close();
    }
  });
});

Deno.test("McpHub talks Streamable HTTP with the configured headers, ${VAR} expanded", async () => {
  await withTempDir(async (dir) => {
    await using http = startHttpMcp();
    const s = server("web", { url: http.url, headers: { "x-test": "${TEST_TOKEN}" } }, {
      TEST_TOKEN: "secret-1",
    });
    const hub = await openHub(dir, [s]);
    try {
      const [view] = hub.servers();
      assert.equal(view.state, "ready", view.error);
      assert.equal(view.transport, "http");
      const r = await callTool(find(hub.tools(), "mcp__web__count"), { n: "3" }, testContext(dir));
      assert.equal(r.output, "1 2 3");
      assert.ok(http.seen.every((s) => s.header === "secret-1"));
      const cut = await callTool(
        find(hub.tools(), "mcp__web__count"),
        { n: "x" },
        testContext(dir),
      );
      assert.match(cut.output, /^n: expected integer/);
    } finally {
      await hub.close();
    }
  });
});

Deno.test("McpHub reports a server that exits, hangs or lacks a variable, and keeps the others", async () => {
  await withTempDir(async (dir) => {
    const notes: string[] = [];
    const hang = { ...testServer("--hang"), startupTimeoutMs: 1500 };
    const hub = await openHub(dir, [
      server("bad", testServer("--fail")),
      server("slow", hang),
      server("nokey", { command: "x", env: { K: "${NOT_SET_ANYWHERE}" } }),
      server("good", testServer()),
    ], notes);
    try {
      const by = Object.fromEntries(hub.servers().map((s) => [s.name, s]));
      assert.equal(by.good.state, "ready", by.good.error);
      assert.equal(by.bad.state, "failed");
      assert.equal(by.slow.state, "failed");
      assert.match(by.slow.error!, /did not start within 1\.5 s/);
      assert.equal(by.nokey.state, "failed");
      assert.match(by.nokey.error!, /field "env.K": environment variable "NOT_SET_ANYWHERE"/);
      assert.ok(
        notes.some((n) => n.startsWith(`MCP server "bad" did not start`)),
        notes.join("\n"),
      );
      const log = await Deno.readTextFile(by.bad.log!);
      assert.match(log, /cannot start \(asked to fail\)/);
      assert.ok(hub.tools().every((t) => t.external?.server === "good"));
    } finally {
      await hub.close();
    }
  });
});

Deno.test("McpHub turns a crash into an error result and one line, and starts the server again once", async () => {
  await withTempDir(async (dir) => {
    const notes: string[] = [];
    const hub = await openHub(dir, [server("t", testServer())], notes);
    try {
      const die = find(hub.tools(), "mcp__t__die");
      const r = await callTool(die, {}, testContext(dir));
      assert.equal(r.ok, false);
      assert.match(r.output, /failed on MCP server "t"/);
      const deadline = Date.now() + 20_000;
      while (hub.servers()[0].state !== "failed" && Date.now() < deadline) {
        await new Promise((res) => setTimeout(res, 50));
      }
      assert.equal(hub.servers()[0].state, "failed");
      assert.ok(notes.some((n) => /MCP server "t" stopped/.test(n)), notes.join("\n"));
      const echo = find(hub.tools(), "mcp__t__echo");
      const restarted = await callTool(echo, { text: "back" }, testContext(dir));
      assert.equal(restarted.output, "echo: back", "started again once after the crash");
      assert.equal((await callTool(die, {}, testContext(dir))).ok, false);
      const deadline2 = Date.now() + 20_000;
      while (hub.servers()[0].state !== "failed" && Date.now() < deadline2) {
        await new Promise((res) => setTimeout(res, 50));
      }
      const again = await callTool(echo, { text: "x" }, testContext(dir));
      assert.equal(again.code, "server_unavailable", "a second crash is final");
    } finally {
      await hub.close();
    }
  });
});

Deno.test("McpHub cancels a running call through the protocol when the signal aborts", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "events.txt");
    const hub = await openHub(dir, [
      server("t", { ...testServer(), env: { MCP_TEST_FILE: file } }),
    ]);
    try {
      const ctrl = new AbortController();
      const running = callTool(
        find(hub.tools(), "mcp__t__wait"),
        {},
        testContext(dir, {
          signal: ctrl.signal,
        }),
      );
      await new Promise((res) => setTimeout(res, 300));
      ctrl.abort();
      const r = await running;
      assert.equal(r.code, "aborted");
      const deadline = Date.now() + 20_000;
      let seen = "";
      while (!seen.includes("cancelled") && Date.now() < deadline) {
        seen = await Deno.readTextFile(file).catch(() => "");
        await new Promise((res) => setTimeout(res, 50));
      }
      assert.match(seen, /cancelled/);
    } finally {
      await hub.close();
    }
  });
});

Deno.test("McpHub caps a long result like command output", async () => {
  await withTempDir(async (dir) => {
    const hub = await openHub(dir, [server("t", testServer())]);
    try {
      const r = await callTool(find(hub.tools(), "mcp__t__big"), {}, testContext(dir));
      assert.ok(r.output.length < 61_000, `${r.output.length} characters`);
      assert.match(r.output, /characters \(\d+ lines\) left out/);
    } finally {
      await hub.close();
    }
  });
});

Deno.test("McpHub falls back to HTTP+SSE when a URL server does not speak Streamable HTTP", async () => {
  await withTempDir(async (dir) => {
    await using sse = await startSseMcp();
    const hub = await openHub(dir, [server("old", { url: sse.url })]);
    try {
      const [view] = hub.servers();
      assert.equal(view.state, "ready", view.error);
      assert.equal(view.transport, "sse");
      const r = await callTool(
        find(hub.tools(), "mcp__old__shout"),
        { text: "hi" },
        testContext(dir),
      );
      assert.equal(r.output, "HI");
    } finally {
      await hub.close();
    }
  });
});

Deno.test("McpHub cancels a call that passes callTimeoutMs and tells the model so", async () => {
  await withTempDir(async (dir) => {
    const hub = await openHub(dir, [server("t", { ...testServer(), callTimeoutMs: 500 })]);
    try {
      const r = await callTool(find(hub.tools(), "mcp__t__wait"), {}, testContext(dir));
      assert.equal(r.code, "timeout");
      assert.match(r.output, /mcp__t__wait did not answer within 0\.5 s; the call was cancelled/);
      const again = await callTool(
        find(hub.tools(), "mcp__t__echo"),
        { text: "still" },
        testContext(dir),
      );
      assert.equal(again.output, "echo: still", "the server is still usable");
    } finally {
      await hub.close();
    }
  });
});

Deno.test("McpHub.close() gives up servers still starting and leaves no process behind", async () => {
  await withTempDir(async (dir) => {
    const marker = `marker-${crypto.randomUUID()}`;
    const hub = new McpHub([server("slow", testServer(marker, "--hang"))], {
      logsDir: join(dir, "logs"),
      version: "0.0.0",
    });
    hub.start();
    const log = join(dir, "logs", "mcp", "slow.log");
    const until = Date.now() + 60_000;
    while (!(await Deno.readTextFile(log).catch(() => "")).includes("hanging")) {
      if (Date.now() > until) throw new Error("the server never started");
      await new Promise((res) => setTimeout(res, 50));
    }
    await hub.close();
    assert.equal(hub.servers()[0].state, "failed");
    const ps = await new Deno.Command("ps", { args: ["-eo", "args"] }).output();
    assert.doesNotMatch(new TextDecoder().decode(ps.stdout), new RegExp(marker));
  });
});
