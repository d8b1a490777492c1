/**
 * End-to-end: `minoc acp` driven by the ACP SDK's client side as a real
 * subprocess (source or bundle) against the scripted model: a turn with a
 * read and an approved write, denials (the file stays, the reason reaches
 * the model), and that stdout carries nothing but JSON-RPC.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { startServer } from "../support/server.ts";
import { messageText, startAcp, updatesOf } from "../support/acp.ts";
import { call, chatRequests, onlyProtocol, project } from "./acp_helpers.ts";

Deno.test("minoc acp runs a turn with a read and an approved write when the editor allows", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [
      { text: "Reading the notes.\n" + call("read_file", { path: "notes.md" }) },
      { text: call("write_to_file", { path: "notes.md", content: "line one\nline two\n" }) },
      { text: "Added line two." },
    ],
  });
  const acp = await startAcp({ cwd: dir, args: ["--base-url", server.baseUrl, "--model", "m1"] });
  try {
    const { sessionId } = await acp.newSession();
    const r = await acp.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "add line two" }],
    });
    assert.equal(r.stopReason, "end_turn");
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\nline two\n");
    const calls = updatesOf(acp.updates, "tool_call");
    assert.deepEqual(calls.map((c) => [c.kind, c.title]), [
      ["read", "read_file notes.md"],
      ["edit", "write_to_file notes.md"],
    ]);
    const ends = updatesOf(acp.updates, "tool_call_update").filter((u) => u.status);
    assert.deepEqual(ends.map((u) => [u.toolCallId, u.status]), [
      ["call_1", "in_progress"],
      ["call_1", "completed"],
      ["call_2", "in_progress"],
      ["call_2", "completed"],
    ]);
    const located = updatesOf(acp.updates, "tool_call_update").find((u) => u.locations?.length);
    assert.deepEqual(located?.locations, [{ path: join(dir, "notes.md") }]);
    assert.equal(acp.permissions.length, 1, "only the write asks");
    const asked = acp.permissions[0];
    assert.deepEqual(asked.options.map((o) => o.kind), [
      "allow_once",
      "allow_always",
      "reject_once",
    ]);
    assert.equal(asked.toolCall.toolCallId, "call_2");
    assert.deepEqual(asked.toolCall.content?.[0], {
      type: "diff",
      path: join(dir, "notes.md"),
      oldText: "line one\n",
      newText: "line one\nline two\n",
    });
    assert.match(messageText(acp.updates), /^Reading the notes\.\n?Added line two\.$/);
    assert.ok(updatesOf(acp.updates, "usage_update").length > 0, "context use is reported");
    const sent = chatRequests(server);
    assert.match(sent[1].at(-1)!.content, /\[read_file notes\.md\] Result:\n.*line one/s);
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("minoc acp leaves the file unchanged and tells the model when the editor denies a write", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [
      { text: call("write_to_file", { path: "notes.md", content: "overwritten\n" }) },
      { text: "Understood, I will not write it." },
      { text: call("write_to_file", { path: "notes.md", content: "overwritten\n" }) },
      { text: "Still not written." },
    ],
  });
  let answer = "reject_once";
  const acp = await startAcp({
    cwd: dir,
    args: ["--base-url", server.baseUrl, "--model", "m1"],
    permission: () => ({ outcome: { outcome: "selected", optionId: answer } }),
  });
  try {
    const { sessionId } = await acp.newSession();
    const prompt = (text: string) =>
      acp.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text }],
      });
    assert.equal((await prompt("overwrite the notes")).stopReason, "end_turn");
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\n");
    const sent = chatRequests(server);
    assert.match(sent[1].at(-1)!.content, /The user denied this call: denied in the editor/);
    const failed = updatesOf(acp.updates, "tool_call_update").filter((u) => u.status === "failed");
    assert.equal(failed.length, 1);

    // An option the agent never offered is a denial too, never an approval.
    answer = "allow_everything";
    assert.equal((await prompt("try again")).stopReason, "end_turn");
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\n");
    assert.match(
      chatRequests(server)[3].at(-1)!.content,
      /denied this call: the editor answered with an unknown option "allow_everything"/,
    );
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("minoc acp refuses a write in plan mode set by session/set_mode, without asking", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [
      { text: call("write_to_file", { path: "notes.md", content: "planned\n" }) },
      { text: "Plan: 1. change the notes." },
    ],
  });
  const acp = await startAcp({ cwd: dir, args: ["--base-url", server.baseUrl, "--model", "m1"] });
  try {
    const created = await acp.agent.request(methods.agent.session.new, {
      cwd: dir,
      mcpServers: [],
    });
    assert.equal(created.modes?.currentModeId, "agent");
    assert.deepEqual(created.modes?.availableModes.map((m) => m.id), ["agent", "plan"]);
    const { sessionId } = created;
    await acp.agent.request(methods.agent.session.setMode, { sessionId, modeId: "plan" });
    const r = await acp.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "change the notes" }],
    });
    assert.equal(r.stopReason, "end_turn");
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\n");
    assert.equal(acp.permissions.length, 0, "plan mode blocks without asking");
    assert.match(chatRequests(server)[1].at(-1)!.content, /plan mode/i);
    await assert.rejects(
      acp.agent.request(methods.agent.session.setMode, { sessionId, modeId: "yolo" }),
      /modeId "yolo" is not a mode/,
    );
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});
