/** `minoc mcp list | add | remove | test` as a real subprocess. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { minocEnv, runMinoc } from "../../support/cli.ts";
import { testServer } from "../../support/mcp.ts";

Deno.test("minoc mcp add, list, test and remove a stdio and an HTTP server", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_mcp_cli_" });
  try {
    const home = minocEnv({ cwd: dir }).MINOC_HOME;
    const file = join(home, "config", "mcp.json");
    const s = testServer();
    let r = await runMinoc([
      "mcp",
      "add",
      "t",
      "--read-only",
      "-e",
      "A=1",
      "--",
      s.command,
      ...s.args,
    ], {
      cwd: dir,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Added MCP server "t" to ".*mcp\.json"/);
    r = await runMinoc(
      ["mcp", "add", "web", "https://example.test/mcp", "-H", "Authorization: Bearer ${TOKEN}"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(await Deno.readTextFile(file));
    assert.deepEqual(doc.mcpServers.t, {
      command: s.command,
      args: s.args,
      env: { A: "1" },
      readOnly: true,
    });
    assert.deepEqual(doc.mcpServers.web, {
      type: "http",
      url: "https://example.test/mcp",
      headers: { Authorization: "Bearer ${TOKEN}" },
    });
    r = await runMinoc(["mcp", "list"], { cwd: dir });
    assert.match(r.stdout, /t\s+home\s+stdio\s+.*read-only/);
    assert.match(r.stdout, /web\s+home\s+http\s+https:\/\/example\.test\/mcp/);
    r = await runMinoc(["mcp", "test", "t"], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /mcp__t__echo \(read-only\): Says the text back/);
    assert.match(r.stdout, /mcp__t__note \(read-only\)/, "the whole server is marked read-only");
    r = await runMinoc(["mcp", "test", "nope"], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Unknown MCP server "nope": servers configured: t, web/);
    r = await runMinoc(["mcp", "remove", "web"], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(Object.keys(JSON.parse(await Deno.readTextFile(file)).mcpServers), ["t"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("minoc mcp test exits 1 with one line and the log's path when the server cannot start", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_mcp_cli_" });
  try {
    const s = testServer("--fail");
    let r = await runMinoc(["mcp", "add", "bad", "--", s.command, ...s.args], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    r = await runMinoc(["mcp", "test", "bad"], { cwd: dir });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /MCP server "bad" did not start: .*; its output is in ".*bad\.log"/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    const home = minocEnv({ cwd: dir }).MINOC_HOME;
    await Deno.writeTextFile(join(home, "config", "mcp.json"), "{ broken");
    r = await runMinoc(["mcp", "add", "x", "cmd"], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not valid JSON.*the file was not changed/);
    assert.equal(await Deno.readTextFile(join(home, "config", "mcp.json")), "{ broken");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
