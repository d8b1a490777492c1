/**
 * End-to-end in a real terminal: a server that cannot start is one line,
 * `/mcp` shows the servers, "Allow always" for a whole MCP server is stored
 * and covers its other tools, a later `run` reuses the saved rule, and
 * `/undo` says plainly that an MCP call cannot be undone.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { minocEnv, runMinoc } from "../support/cli.ts";
import { hasTmux, type TmuxSession } from "../support/tmux.ts";
import { startChat } from "../support/tmux_chat.ts";
import { testServer, writeMcpConfig } from "../support/mcp.ts";

const call = (tool: string, params: Record<string, string>) => ({
  text: `<tool_call>\n<${tool}>\n${
    Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join("\n")
  }\n</${tool}>\n</tool_call>`,
});

/** Types `/mcp` until no server is starting any more; returns the last listing. */
async function mcpUntilSettled(t: TmuxSession): Promise<string> {
  const until = Date.now() + 90_000;
  for (let n = 1; Date.now() < until; n++) {
    await t.type("/mcp");
    await t.send("Enter");
    const screen = await t.waitFor(new RegExp(`(bad \\(stdio[^\\n]*\\n[\\s\\S]*){${n}}›`), 60_000);
    const last = screen.slice(screen.lastIndexOf("› /mcp"));
    if (!/: starting/.test(last)) return last;
  }
  throw new Error("The MCP servers were still starting after 90 s");
}

Deno.test({
  name: "chat: /mcp shows servers, Allow always stores a rule for the server and run reuses it",
  ignore: !hasTmux(),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "minoc_mcp_tmux_" });
    await Deno.writeTextFile(join(dir, "keep.txt"), "x\n");
    const env = minocEnv({ cwd: dir });
    const notes = join(dir, "notes.txt");
    await writeMcpConfig(env.MINOC_HOME, {
      t: { ...testServer(), env: { MCP_TEST_FILE: notes } },
      bad: testServer("--fail"),
    });
    await using server = await startServer({
      replies: [
        call("mcp__t__note", { line: "one" }),
        call("mcp__t__add", { a: "2", b: "3" }),
        { text: "Both ran." },
        call("mcp__t__note", { line: "two" }),
        { text: "Ran again." },
      ],
    });
    const t = await startChat(dir, ["--base-url", server.baseUrl, "--model", "m"], { env });
    try {
      const status = await mcpUntilSettled(t);
      assert.match(status, /t \(stdio, [^)]*\): ready, 7 tools[\s\S]*mcp__t__echo \(read-only\)/);
      assert.match(status, /bad \(stdio, [^)]*\): failed: did not start/);
      await t.type("note twice");
      await t.send("Enter");
      await t.waitFor(/warning: MCP server "bad" did not start[\s\S]*Allow mcp__t__note\?/, 60_000);
      const asked = await t.screen();
      assert.match(
        asked,
        /mcp__t__note\n\s+line: one\n[\s\S]*runs on MCP server "t": minoc cannot undo/,
      );
      await t.pick(/^Allow always/, 60_000);
      await t.waitFor(/Rule to store/, 60_000);
      await t.pick(/mcp__t__\* \(every tool of this MCP server\)\s+in this project/, 60_000);
      await t.waitFor(/Both ran\.[\s\S]*›/, 60_000);
      const screen = await t.screen();
      assert.doesNotMatch(screen, /Allow mcp__t__add\?/, "the server rule covers add");
      const system = server.requests[0].body.messages[0].content as string;
      assert.match(system, /^- t: .*\bnote \(Writes a note line/m);
      assert.match(server.requests[2].body.messages.at(-1).content, /sum: 5/);
      await t.type("/undo");
      await t.send("Enter");
      await t.waitFor(/minoc cannot undo what an MCP tool did/, 60_000);
      await t.quit();

      const saved = await Deno.readTextFile(join(env.MINOC_HOME, "config", "permissions.json"));
      assert.match(saved, /"tool": "mcp__t__\*"/);
      const r = await runMinoc(["run", "again", "--base-url", server.baseUrl, "--model", "m"], {
        cwd: dir,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.match(server.requests[4].body.messages.at(-1).content, /noted: two/);
      assert.equal(await Deno.readTextFile(notes), "one\ntwo\n");
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "chat --step: an MCP call is shown with its parameters and verdicts before it runs",
  ignore: !hasTmux(),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "minoc_mcp_step_" });
    await Deno.writeTextFile(join(dir, "keep.txt"), "x\n");
    const env = minocEnv({ cwd: dir });
    const notes = join(dir, "notes.txt");
    await writeMcpConfig(env.MINOC_HOME, { t: { ...testServer(), env: { MCP_TEST_FILE: notes } } });
    // The tool list is known before the request (as after any earlier session).
    assert.equal((await runMinoc(["mcp", "test", "t"], { cwd: dir })).code, 0);
    await using server = await startServer({
      replies: [call("mcp__t__note", { line: "stepped" }), { text: "Skipped it." }],
    });
    const t = await startChat(dir, [
      "--base-url",
      server.baseUrl,
      "--model",
      "m",
      "--yes",
      "--step",
    ], { env });
    try {
      await t.type("note it");
      await t.send("Enter");
      const step = await t.waitFor(/── step: mcp__t__note ──[\s\S]*Gates:[\s\S]*❯ Run/, 60_000);
      assert.match(step, /Call: mcp__t__note\n\s+line: stepped/);
      assert.match(step, /approval/);
      await t.pick(/^Skip/, 60_000);
      await t.waitFor(/Skipped it\.[\s\S]*›/, 60_000);
      await t.quit();
      await assert.rejects(Deno.stat(notes), Deno.errors.NotFound);
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
