/**
 * End-to-end: `session/load` in a new `minoc acp` process replays a recorded
 * session as updates and continues it with the whole earlier conversation;
 * malformed and invalid requests get JSON-RPC errors and the agent keeps
 * serving; the editor's file system is used when the client offers it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { startServer } from "../support/server.ts";
import { messageText, startAcp, updatesOf } from "../support/acp.ts";
import { sessionFiles } from "../support/cli.ts";
import { call, chatRequests, onlyProtocol, project } from "./acp_helpers.ts";

Deno.test("minoc acp replays and continues a recorded session on session/load", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [
      {
        text: "<thinking>look first</thinking>Let me look.\n" +
          call("read_file", { path: "notes.md" }),
      },
      { text: "The notes say line one." },
      { text: "Still line one." },
    ],
  });
  const args = ["--base-url", server.baseUrl, "--model", "m1"];
  const first = await startAcp({ cwd: dir, args });
  let sessionId: string;
  try {
    sessionId = (await first.newSession()).sessionId;
    await first.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "read the notes" }],
    });
    const thought = updatesOf(first.updates, "agent_thought_chunk")
      .map((u) => u.content.type === "text" ? u.content.text : "").join("");
    assert.equal(thought, "look first", "thinking is sent as a thought");
    assert.doesNotMatch(messageText(first.updates), /thinking|look first/);
  } finally {
    assert.equal(await first.close(), 0, first.stderr());
  }
  const second = await startAcp({ cwd: dir, args });
  try {
    const loaded = await second.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: dir,
      mcpServers: [],
    });
    assert.equal(loaded.modes?.currentModeId, "agent");
    const kinds = second.updates.map((n) => n.update.sessionUpdate);
    assert.deepEqual(kinds, [
      "user_message_chunk",
      "agent_thought_chunk",
      "agent_message_chunk",
      "tool_call",
      "agent_message_chunk",
    ]);
    const [user] = updatesOf(second.updates, "user_message_chunk");
    assert.deepEqual(user.content, { type: "text", text: "read the notes" });
    const [tool] = updatesOf(second.updates, "tool_call");
    assert.equal(tool.kind, "read");
    assert.equal(tool.status, "completed");
    assert.deepEqual(tool.locations, [{ path: join(dir, "notes.md") }]);
    assert.equal(messageText(second.updates), "Let me look.\nThe notes say line one.");

    const r = await second.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "and now?" }],
    });
    assert.equal(r.stopReason, "end_turn");
    const last = chatRequests(server).at(-1)!;
    assert.ok(last.some((m) => m.role === "user" && m.content === "read the notes"));
    assert.equal(last.at(-1)!.content, "and now?");
    const files = await sessionFiles(join(dir, ".home", ".minoc"));
    assert.equal(files.length, 1, "the same session file grows");

    await assert.rejects(
      second.agent.request(methods.agent.session.load, {
        sessionId: "no-such-session",
        cwd: dir,
        mcpServers: [],
      }),
      /Unknown session "no-such-session"/,
    );
  } finally {
    assert.equal(await second.close(), 0, second.stderr());
    onlyProtocol(second.lines);
    await Deno.remove(dir, { recursive: true });
  }
});

/** The stdout line that answers request `id`. */
function answerTo(
  lines: readonly string[],
  id: unknown,
): { error?: { code: number; message: string } } | undefined {
  return lines.map((l) => JSON.parse(l)).find((m) => m.id === id && !("method" in m));
}

Deno.test("minoc acp answers malformed requests with JSON-RPC errors and keeps serving", async () => {
  const dir = await project();
  await using server = await startServer({ replies: [{ text: "Still here." }] });
  const acp = await startAcp({ cwd: dir, args: ["--base-url", server.baseUrl, "--model", "m1"] });
  try {
    await acp.raw("this is not json");
    await acp.raw(
      '{"jsonrpc":"2.0","id":"x1","method":"session/prompt","params":{"sessionId":"s"}}',
    );
    await acp.raw('{"jsonrpc":"2.0","id":"x2","method":"no/such_method","params":{}}');
    await acp.until(() => answerTo(acp.lines, "x2") !== undefined, "the answers");
    assert.equal(answerTo(acp.lines, null)?.error?.code, -32700);
    assert.equal(answerTo(acp.lines, "x1")?.error?.code, -32602);
    assert.equal(answerTo(acp.lines, "x2")?.error?.code, -32601);
    await assert.rejects(
      acp.agent.request(methods.agent.session.prompt, {
        sessionId: "missing",
        prompt: [{ type: "text", text: "hi" }],
      }),
      /missing/,
    );
    await assert.rejects(
      acp.agent.request(methods.agent.session.new, {
        cwd: dir,
        mcpServers: [{ type: "http", name: "web", url: "http://127.0.0.1:1/mcp", headers: [] }],
      }),
      /mcpServers\[0\] "web": transport "http" is not supported/,
    );
    const { sessionId } = await acp.newSession();
    await assert.rejects(
      acp.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "image", data: "AAAA", mimeType: "image/png" }],
      }),
      /content type "image" is not supported/,
    );
    const r = await acp.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "are you there?" }],
    });
    assert.equal(r.stopReason, "end_turn");
    assert.equal(messageText(acp.updates), "Still here.");
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("minoc acp reads and writes through the editor when it offers its file system", async () => {
  const dir = await project();
  const notes = join(dir, "notes.md");
  const buffers = new Map([[notes, "unsaved line\n"]]);
  await using server = await startServer({
    replies: [
      { text: call("read_file", { path: "notes.md" }) },
      { text: call("write_to_file", { path: "notes.md", content: "from the agent\n" }) },
      { text: "Done." },
    ],
  });
  const acp = await startAcp({
    cwd: dir,
    args: ["--base-url", server.baseUrl, "--model", "m1"],
    capabilities: { fs: { readTextFile: true, writeTextFile: true } },
    buffers,
  });
  try {
    const { sessionId } = await acp.newSession();
    await acp.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "rewrite the notes" }],
    });
    assert.match(chatRequests(server)[1].at(-1)!.content, /unsaved line/);
    assert.equal(buffers.get(notes), "from the agent\n");
    assert.equal(await Deno.readTextFile(notes), "line one\n", "the editor saves, not minoc");
    const [file] = await sessionFiles(join(dir, ".home", ".minoc"));
    const responses = (file.messages as { role: string; tool?: string; backupIds?: string[] }[])
      .filter((m) => m.role === "tool_response" && m.tool === "write_to_file");
    assert.equal(responses[0]?.backupIds?.length, 1, "the write is backed up for undo");
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});
