/**
 * End-to-end: `minoc acp` keeps minoc's gates — the blocklist blocks without
 * asking, "Allow always" stores the same rule as the terminal, dry-run and
 * step mode say what they did in the updates — and the model can be switched
 * with `session/set_config_option`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { startServer } from "../support/server.ts";
import { testServer } from "../support/mcp.ts";
import { type AcpHarness, startAcp, updatesOf } from "../support/acp.ts";
import { call, chatRequests, onlyProtocol, project } from "./acp_helpers.ts";

async function prompt(acp: AcpHarness, sessionId: string, text: string) {
  return await acp.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text }],
  });
}

function notes(acp: AcpHarness): string {
  return updatesOf(acp.updates, "tool_call_update").flatMap((u) => u.content ?? [])
    .map((c) => c.type === "content" && c.content.type === "text" ? c.content.text : "").join("\n");
}

Deno.test("minoc acp blocks a blocklisted command without asking the editor", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [{ text: call("execute_command", { command: "rm -rf /" }) }, { text: "Blocked." }],
  });
  const acp = await startAcp({
    cwd: dir,
    args: ["--base-url", server.baseUrl, "--model", "m1", "--yes"],
  });
  try {
    const { sessionId } = await acp.newSession();
    assert.equal((await prompt(acp, sessionId, "clean up")).stopReason, "end_turn");
    assert.equal(acp.permissions.length, 0);
    assert.match(chatRequests(server)[1].at(-1)!.content, /Blocked by the security gate/);
    const [end] = updatesOf(acp.updates, "tool_call_update").filter((u) => u.status === "failed");
    assert.ok(end, "the call failed");
    assert.match(notes(acp), /Denied by security/);
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("minoc acp stores an allow-always answer as a rule and asks no more for such calls", async () => {
  const dir = await project();
  const write = (content: string) => ({
    text: call("write_to_file", { path: "new.md", content }),
  });
  await using server = await startServer({
    replies: [write("two\n"), { text: "Wrote." }, write("three\n"), { text: "Wrote again." }],
  });
  const acp = await startAcp({
    cwd: dir,
    args: ["--base-url", server.baseUrl, "--model", "m1"],
    permission: (req) => {
      const always = req.options.find((o) => o.kind === "allow_always");
      return { outcome: { outcome: "selected", optionId: always!.optionId } };
    },
  });
  try {
    const { sessionId } = await acp.newSession();
    await prompt(acp, sessionId, "write two");
    await prompt(acp, sessionId, "write three");
    assert.equal(acp.permissions.length, 1, "the second write is allowed by the stored rule");
    assert.equal(await Deno.readTextFile(join(dir, "new.md")), "three\n");
    const stored = JSON.parse(
      await Deno.readTextFile(join(dir, ".home", ".minoc", "config", "permissions.json")),
    );
    const rules = (stored.rules ?? stored) as { tool: string; pattern: string; scope: string }[];
    assert.ok(
      rules.some((r) => r.tool === "write_to_file" && r.pattern === "new.md" && r.scope === dir),
      JSON.stringify(stored),
    );
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("minoc acp --dry-run changes nothing and says so in the call's update", async () => {
  const dir = await project();
  // A broken rules file makes minoc warn: the warning goes to stderr, never into the protocol.
  const config = join(dir, ".home", ".minoc", "config");
  await Deno.mkdir(config, { recursive: true });
  await Deno.writeTextFile(join(config, "permissions.json"), "{ not json");
  await using server = await startServer({
    replies: [
      { text: call("write_to_file", { path: "new.md", content: "changed\n" }) },
      { text: "Done." },
    ],
  });
  const acp = await startAcp({
    cwd: dir,
    args: ["--base-url", server.baseUrl, "--model", "m1", "--dry-run"],
  });
  try {
    const { sessionId } = await acp.newSession();
    assert.equal((await prompt(acp, sessionId, "change it")).stopReason, "end_turn");
    assert.equal(await Deno.stat(join(dir, "new.md")).catch(() => null), null);
    assert.match(notes(acp), /Dry run/);
    assert.match(chatRequests(server)[1].at(-1)!.content, /Result/);
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    assert.match(acp.stderr(), /permissions\.json/);
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("minoc acp --step asks before each call and a skipped call does not run", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [
      { text: call("write_to_file", { path: "notes.md", content: "stepped\n" }) },
      { text: "Skipped then." },
    ],
  });
  const acp = await startAcp({
    cwd: dir,
    args: ["--base-url", server.baseUrl, "--model", "m1", "--step", "--yes"],
    permission: () => ({ outcome: { outcome: "selected", optionId: "step_skip" } }),
  });
  try {
    const { sessionId } = await acp.newSession();
    assert.equal((await prompt(acp, sessionId, "change it")).stopReason, "end_turn");
    assert.equal(acp.permissions.length, 1);
    assert.deepEqual(acp.permissions[0].options.map((o) => o.optionId), [
      "step_run",
      "step_rest",
      "step_skip",
      "step_abort",
    ]);
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\n");
    assert.match(notes(acp), /Step mode: user: skip/);
    assert.match(chatRequests(server)[1].at(-1)!.content, /skipped this call in step mode/);
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("minoc acp switches the model with session/set_config_option", async () => {
  const dir = await project();
  const config = join(dir, ".home", ".minoc", "config");
  await Deno.mkdir(config, { recursive: true });
  await Deno.writeTextFile(
    join(config, "models.json"),
    JSON.stringify({ m2: { contextWindow: 8000 } }),
  );
  await using server = await startServer({ replies: [{ text: "From m1." }, { text: "From m2." }] });
  const acp = await startAcp({ cwd: dir, args: ["--base-url", server.baseUrl, "--model", "m1"] });
  try {
    const created = await acp.newSession();
    const { sessionId } = created;
    const model = (created as { configOptions?: { id: string; options: { value: string }[] }[] })
      .configOptions?.find((o) => o.id === "model");
    assert.deepEqual(model?.options.map((o) => o.value), ["m1", "m2"]);
    await prompt(acp, sessionId, "who are you?");
    const set = await acp.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "model",
      value: "m2",
    });
    assert.equal(set.configOptions.find((o) => o.id === "model")?.currentValue, "m2");
    await prompt(acp, sessionId, "and now?");
    const models = server.requests.filter((r) => r.path.endsWith("/chat/completions"))
      .map((r) => r.body.model);
    assert.deepEqual(models, ["m1", "m2"]);
    await assert.rejects(
      acp.agent.request(methods.agent.session.setConfigOption, {
        sessionId,
        configId: "model",
        value: "m9",
      }),
      /value "m9" is not offered for "model"/,
    );
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("minoc acp starts the MCP servers the editor passes; their tools are gated and fed back", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [
      {
        text: "<tool_call>\n<mcp__ed__echo>\n<text>hi there</text>\n</mcp__ed__echo>\n</tool_call>",
      },
      { text: "It echoed." },
    ],
  });
  const acp = await startAcp({ cwd: dir, args: ["--base-url", server.baseUrl, "--model", "m1"] });
  try {
    const mcp = testServer();
    const { sessionId } = await acp.agent.request(methods.agent.session.new, {
      cwd: dir,
      mcpServers: [{
        name: "ed",
        command: mcp.command,
        args: mcp.args,
        env: [],
      }],
    });
    const r = await acp.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "echo hi" }],
    });
    assert.equal(r.stopReason, "end_turn");
    assert.equal(acp.permissions.length, 1, "an MCP call asks like any exec call");
    assert.equal(acp.permissions[0].toolCall.title, "mcp__ed__echo");
    const sent = chatRequests(server);
    assert.match(sent[0][0].content, /mcp__ed__echo/, "the tool is listed in the prompt");
    assert.match(sent[1].at(-1)!.content, /echo: hi there/);
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    await Deno.remove(dir, { recursive: true });
  }
});
