/**
 * End-to-end: `session/cancel` from an ACP client stops `minoc acp`'s turn
 * at once — in the middle of a streamed reply, and during a long command
 * (the command's process is gone) — and the turn ends with `cancelled`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { startServer } from "../support/server.ts";
import { messageText, startAcp, updatesOf } from "../support/acp.ts";
import { call, onlyProtocol, project } from "./acp_helpers.ts";

/** Fails instead of hanging when `p` does not settle within `ms`. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

Deno.test("minoc acp ends the turn with cancelled when the client cancels a streamed reply", async () => {
  const dir = await project();
  const words = Array.from({ length: 400 }, (_, i) => `word${i} `);
  await using server = await startServer({
    replies: [{ chunks: words, chunkDelayMs: 250 }, { text: "Back again." }],
  });
  const acp = await startAcp({ cwd: dir, args: ["--base-url", server.baseUrl, "--model", "m1"] });
  try {
    const { sessionId } = await acp.newSession();
    const turn = acp.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "talk a lot" }],
    });
    await acp.until(() => messageText(acp.updates).includes("word1 "), "the reply to stream");
    await acp.agent.notify(methods.agent.session.cancel, { sessionId });
    const r = await within(turn, 60_000, "the cancelled prompt");
    assert.equal(r.stopReason, "cancelled");
    assert.ok(!messageText(acp.updates).includes("word399"), "the stream was stopped");
    // The session goes on after a cancel.
    const next = await acp.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "anything else?" }],
    });
    assert.equal(next.stopReason, "end_turn");
    assert.match(messageText(acp.updates), /Back again\.$/);
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});

async function running(marker: string): Promise<boolean> {
  const out = await new Deno.Command("ps", { args: ["-eo", "args"], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).split("\n").some((l) => l.includes(marker));
}

Deno.test("minoc acp shows a running command's output and stops it when the client cancels the turn", async () => {
  const dir = await project();
  const marker = `sleep ${600 + Math.floor(Math.random() * 300)}`;
  await using server = await startServer({
    replies: [{
      text: call("execute_command", {
        command: `echo live-output && echo started > started.txt && ${marker}`,
      }),
    }],
  });
  const acp = await startAcp({ cwd: dir, args: ["--base-url", server.baseUrl, "--model", "m1"] });
  try {
    const { sessionId } = await acp.newSession();
    const turn = acp.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "wait a long time" }],
    });
    await acp.until(() => {
      try {
        return Deno.statSync(join(dir, "started.txt")).isFile;
      } catch {
        return false;
      }
    }, "the command to start");
    await acp.until(
      () =>
        updatesOf(acp.updates, "tool_call_update").some((u) =>
          u.status === undefined &&
          (u.content ?? []).some((c) =>
            c.type === "content" && c.content.type === "text" &&
            c.content.text.includes("live-output")
          )
        ),
      "the command's live output in an update",
    );
    await acp.agent.notify(methods.agent.session.cancel, { sessionId });
    const r = await within(turn, 60_000, "the cancelled prompt");
    assert.equal(r.stopReason, "cancelled");
    const ends = updatesOf(acp.updates, "tool_call_update").filter((u) =>
      u.status === "failed" || u.status === "completed"
    );
    assert.equal(ends.length, 1, "the command's call got a final status");
    const deadline = Date.now() + 30_000;
    while (await running(marker)) {
      assert.ok(Date.now() < deadline, `"${marker}" is still running after the cancel`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("minoc acp denies the call and ends with cancelled when the turn is cancelled during a permission request", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [{ text: call("write_to_file", { path: "new.md", content: "never\n" }) }],
  });
  const acp = await startAcp({
    cwd: dir,
    args: ["--base-url", server.baseUrl, "--model", "m1"],
    // An editor that never answers.
    permission: () => new Promise(() => {}),
  });
  try {
    const { sessionId } = await acp.newSession();
    const turn = acp.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "write it" }],
    });
    await acp.until(() => acp.permissions.length === 1, "the permission request");
    await acp.agent.notify(methods.agent.session.cancel, { sessionId });
    const r = await within(turn, 60_000, "the cancelled prompt");
    assert.equal(r.stopReason, "cancelled");
    assert.equal(await Deno.stat(join(dir, "new.md")).catch(() => null), null);
    const failed = updatesOf(acp.updates, "tool_call_update").filter((u) => u.status === "failed");
    assert.equal(failed.length, 1);
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("minoc acp ends the turn when the client cancels the session/prompt request itself", async () => {
  const dir = await project();
  const words = Array.from({ length: 400 }, (_, i) => `word${i} `);
  await using server = await startServer({
    replies: [{ chunks: words, chunkDelayMs: 250 }, { text: "Next turn." }],
  });
  const acp = await startAcp({ cwd: dir, args: ["--base-url", server.baseUrl, "--model", "m1"] });
  try {
    const { sessionId } = await acp.newSession();
    const abort = new AbortController();
    const turn = acp.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "talk a lot" }],
    }, { cancellationSignal: abort.signal });
    await acp.until(() => messageText(acp.updates).includes("word1 "), "the reply to stream");
    abort.abort();
    // The SDK answers a cancelled request with the result or a -32800 error; either ends it.
    const settled = await within(
      turn.then((r) => r.stopReason, (e) => String(e)),
      60_000,
      "the cancelled prompt",
    );
    assert.match(settled, /cancelled|-32800|ancel/);
    // A turn still running would refuse this prompt ("already running a prompt").
    const next = await acp.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "next" }],
    });
    assert.equal(next.stopReason, "end_turn");
    assert.ok(!messageText(acp.updates).includes("word399"), "the stream was stopped");
  } finally {
    assert.equal(await acp.close(), 0, acp.stderr());
    onlyProtocol(acp.lines);
    await Deno.remove(dir, { recursive: true });
  }
});
