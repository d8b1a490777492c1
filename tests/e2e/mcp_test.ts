/**
 * End-to-end with the scripted model: MCP tools listed in the prompt, a call
 * made and its result fed back, plan mode refusing a tool that is not
 * read-only, a crashing server reported, and no server process outliving minoc.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { minocEnv, runMinoc, sessionFiles } from "../support/cli.ts";
import { EVERYTHING, startHttpMcp, testServer, writeMcpConfig } from "../support/mcp.ts";

const call = (tool: string, params: Record<string, string> = {}) => ({
  text: `<tool_call>\n<${tool}>\n${
    Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join("\n")
  }\n</${tool}>\n</tool_call>`,
});

async function withProject(fn: (dir: string, home: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "minoc_mcp_e2e_" });
  try {
    await Deno.writeTextFile(join(dir, "keep.txt"), "x\n");
    await fn(dir, minocEnv({ cwd: dir }).MINOC_HOME);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("run lists MCP tools by name, makes a call and feeds its result back", async () => {
  await withProject(async (dir, home) => {
    const notes = join(dir, "notes.txt");
    await using http = startHttpMcp();
    await writeMcpConfig(home, {
      t: { ...testServer(), env: { MCP_TEST_FILE: notes } },
      everything: EVERYTHING,
      web: { url: http.url },
    });
    const first = await runMinoc(["mcp", "test", "t"], { cwd: dir });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /MCP server "t" is working \(stdio, \d+ ms\): 7 tools/);
    // `mcp test` keeps the tool lists, so the first request lists the tools at once.
    assert.equal((await runMinoc(["mcp", "test", "everything"], { cwd: dir })).code, 0);
    assert.equal((await runMinoc(["mcp", "test", "web"], { cwd: dir })).code, 0);
    await using server = await startServer({
      replies: [
        call("mcp_describe", { name: "mcp__t__note" }),
        call("mcp__t__note", { line: "from the model" }),
        call("mcp__everything__echo", { message: "via everything" }),
        call("mcp__web__shout", { text: "over http" }),
        { text: "Done." },
      ],
    });
    const r = await runMinoc(
      ["run", "note it", "--yes", "--base-url", server.baseUrl, "--model", "m"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const system = server.requests[0].body.messages[0].content as string;
    assert.match(system, /# MCP tools/);
    assert.match(
      system,
      /\nCall an MCP tool by its full name, mcp__<server>__<tool> \(mcp__t__echo\)/,
    );
    assert.match(system, /\n- t: echo\b[^\n]*\bnote\b/);
    assert.match(system, /\n- web: shout\b/);
    assert.doesNotMatch(system, /<mcp__t__note>/, "no full docs in the prompt");
    assert.match(system, /\nmcp_describe <name>\.\.\.: /);
    const described = server.requests[1].body.messages.at(-1).content as string;
    assert.match(described, /## mcp__t__note[\s\S]*- line: \(string\)/);
    const noted = server.requests[2].body.messages.at(-1).content as string;
    assert.match(noted, /noted: from the model/);
    assert.equal(await Deno.readTextFile(notes), "from the model\n");
    const echoed = server.requests[3].body.messages.at(-1).content as string;
    assert.match(echoed, /via everything/);
    assert.match(server.requests[4].body.messages.at(-1).content, /OVER HTTP/);
    const [session] = await sessionFiles(home);
    const calls = (session.messages as { role: string; call?: { tool: string } }[])
      .filter((m) => m.role === "tool_call").map((m) => m.call?.tool);
    assert.deepEqual(calls, [
      "mcp_describe",
      "mcp__t__note",
      "mcp__everything__echo",
      "mcp__web__shout",
    ]);
  });
});

Deno.test("run --plan refuses an MCP tool that is not read-only and runs a read-only one", async () => {
  await withProject(async (dir, home) => {
    const notes = join(dir, "notes.txt");
    await writeMcpConfig(home, { t: { ...testServer(), env: { MCP_TEST_FILE: notes } } });
    assert.equal((await runMinoc(["mcp", "test", "t"], { cwd: dir })).code, 0);
    await using server = await startServer({
      replies: [
        call("mcp__t__note", { line: "x" }),
        call("mcp__t__echo", { text: "planning" }),
        { text: "1. Plan." },
      ],
    });
    const r = await runMinoc(
      ["run", "plan", "--plan", "--yes", "--base-url", server.baseUrl, "--model", "m"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const system = server.requests[0].body.messages[0].content as string;
    assert.match(system, /\nPlan mode: only the read-only MCP tools are listed\./);
    assert.match(system, /\n- t: [^\n]*\becho \(Says the text back\)/);
    assert.doesNotMatch(system, /\n- t: [^\n]*\bnote\b/);
    assert.match(server.requests[1].body.messages.at(-1).content, /plan mode is read-only/);
    assert.match(server.requests[2].body.messages.at(-1).content, /echo: planning/);
    await assert.rejects(Deno.stat(notes), Deno.errors.NotFound);
  });
});

Deno.test("run tells the model and the user in one line when an MCP server crashes, then starts it again", async () => {
  await withProject(async (dir, home) => {
    const marker = `marker-${crypto.randomUUID()}`;
    await writeMcpConfig(home, { t: testServer(marker) });
    assert.equal((await runMinoc(["mcp", "test", "t"], { cwd: dir })).code, 0);
    await using server = await startServer({
      replies: [call("mcp__t__die"), call("mcp__t__echo", { text: "again" }), { text: "Gave up." }],
    });
    const r = await runMinoc(
      ["run", "try", "--yes", "--base-url", server.baseUrl, "--model", "m"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /MCP server "t" stopped/);
    assert.match(server.requests[1].body.messages.at(-1).content, /failed on MCP server "t"/);
    assert.match(server.requests[2].body.messages.at(-1).content, /echo: again/, "started again");
    const ps = await new Deno.Command("ps", { args: ["-eo", "args"] }).output();
    assert.doesNotMatch(new TextDecoder().decode(ps.stdout), new RegExp(marker));
  });
});

Deno.test("run leaves no MCP server process behind when it ends", async () => {
  await withProject(async (dir, home) => {
    const marker = `marker-${crypto.randomUUID()}`;
    await writeMcpConfig(home, {
      t: testServer(marker),
      u: { ...testServer(marker, "--hang"), startupTimeoutMs: 3000 },
    });
    await using server = await startServer({ replies: [{ text: "Nothing to do." }] });
    const r = await runMinoc(["run", "hi", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
    });
    assert.equal(r.code, 0, r.stderr);
    const ps = await new Deno.Command("ps", { args: ["-eo", "args"] }).output();
    assert.doesNotMatch(new TextDecoder().decode(ps.stdout), new RegExp(marker));
  });
});

Deno.test("run --dry-run does not call an MCP tool and lists it in its report", async () => {
  await withProject(async (dir, home) => {
    const notes = join(dir, "notes.txt");
    await writeMcpConfig(home, { t: { ...testServer(), env: { MCP_TEST_FILE: notes } } });
    assert.equal((await runMinoc(["mcp", "test", "t"], { cwd: dir })).code, 0);
    await using server = await startServer({
      replies: [call("mcp__t__note", { line: "never" }), { text: "Done." }],
    });
    const r = await runMinoc(
      ["run", "note", "--dry-run", "--base-url", server.baseUrl, "--model", "m"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    await assert.rejects(Deno.stat(notes), Deno.errors.NotFound);
    assert.match(server.requests[1].body.messages.at(-1).content, /mcp__t__note was not run/);
    assert.match(r.stdout, /Commands it would have run \(1\):\n {2}\$ mcp__t__note line=never/);
  });
});

Deno.test("run on first use waits for a server whose tools were never listed, and lists them", async () => {
  await withProject(async (dir, home) => {
    await writeMcpConfig(home, { t: testServer() });
    await using server = await startServer({
      replies: [call("mcp__t__echo", { text: "first time" }), { text: "Done." }],
    });
    const r = await runMinoc(
      ["run", "echo", "--yes", "--base-url", server.baseUrl, "--model", "m"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      server.requests[0].body.messages[0].content,
      /\n- t: echo \(Says the text back\); add \(Adds two numbers\); /,
    );
    assert.match(server.requests[1].body.messages.at(-1).content, /echo: first time/);
    const cache = JSON.parse(await Deno.readTextFile(join(home, "cache", "mcp_tools.json")));
    assert.equal(cache.t.tools.length, 7, "the next session does not wait");
  });
});
