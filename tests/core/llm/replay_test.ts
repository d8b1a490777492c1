import assert from "node:assert/strict";
import { join } from "node:path";
import type { StreamEvent } from "../../../interfaces/agent.ts";
import type { SessionFile } from "../../../interfaces/history.ts";
import {
  loadReplies,
  parseReplies,
  replayProvider,
  repliesFromSession,
} from "../../../core/llm/replay.ts";

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const ev of stream) out.push(ev);
  return out;
}

const ask = (content: string) => ({ messages: [{ role: "user" as const, content }] });

Deno.test("`replayProvider()` serves replies in order and records each request", async () => {
  const p = replayProvider([{ text: "first" }, { chunks: ["sec", "ond"] }], { model: "fx" });
  assert.equal(p.model, "fx");
  assert.equal(p.remaining(), 2);
  const one = await collect(p.stream(ask("a")));
  assert.deepEqual(one, [{ type: "text", text: "first" }, { type: "end", reason: "stop" }]);
  const two = await collect(p.stream(ask("b")));
  assert.deepEqual(two.filter((e) => e.type === "text").map((e) => e.text), ["sec", "ond"]);
  assert.equal(p.remaining(), 0);
  assert.deepEqual(p.requests.map((r) => r[0].content), ["a", "b"]);
});

Deno.test("`replayProvider()` ends with an error, not a throw, when the script is used up", async () => {
  const p = replayProvider([{ text: "only" }], { endpoint: "fixture.json" });
  await collect(p.stream(ask("a")));
  const events = await collect(p.stream(ask("b")));
  assert.equal(events.length, 1);
  const end = events[0];
  assert.ok(end.type === "end" && end.reason === "error");
  assert.match(end.error!.message, /"fixture\.json" is exhausted: no reply left for request 2/);
});

Deno.test("`replayProvider()` reports usage in either spelling, errors and length stops", async () => {
  const p = replayProvider([
    { text: "a", usage: { prompt_tokens: 10, completion_tokens: 2 } },
    { text: "b", usage: { promptTokens: 5, completionTokens: 1, totalTokens: 6 } },
    { text: "c", finishReason: "length" },
    { text: "d", error: { kind: "server", message: "boom" } },
  ]);
  const usages = [];
  for (let i = 0; i < 2; i++) {
    const ev = (await collect(p.stream(ask("x")))).find((e) => e.type === "usage");
    usages.push(ev?.type === "usage" ? ev.usage : null);
  }
  assert.deepEqual(usages, [
    { promptTokens: 10, completionTokens: 2, totalTokens: 12 },
    { promptTokens: 5, completionTokens: 1, totalTokens: 6 },
  ]);
  assert.deepEqual((await collect(p.stream(ask("x")))).at(-1), { type: "end", reason: "length" });
  const failed = (await collect(p.stream(ask("x")))).at(-1);
  assert.deepEqual(failed, {
    type: "end",
    reason: "error",
    error: { kind: "server", message: "boom", afterText: true },
  });
});

Deno.test("`replayProvider()` stops with `aborted` when the signal is already aborted", async () => {
  const p = replayProvider([{ chunks: ["a", "b"] }]);
  const c = new AbortController();
  c.abort();
  const events = await collect(p.stream({ ...ask("x"), signal: c.signal }));
  assert.deepEqual(events, [{ type: "end", reason: "aborted" }]);
});

Deno.test("`replayProvider()` with a loader reports a file it cannot read as an error event", async () => {
  const p = replayProvider(() => loadReplies("/nonexistent/replies.json"));
  const events = await collect(p.stream(ask("x")));
  const end = events.at(-1)!;
  assert.ok(end.type === "end" && end.reason === "error");
  assert.match(end.error!.message, /Cannot read replay script "\/nonexistent\/replies\.json"/);
});

Deno.test("`parseReplies()` reads an array, a server script and a session file", () => {
  assert.deepEqual(parseReplies('[{"text":"a"},{"chunks":["b"]}]'), [{ text: "a" }, {
    chunks: ["b"],
  }]);
  assert.deepEqual(parseReplies('{"replies":[{"text":"a","chunkDelayMs":5}]}'), [{
    text: "a",
    chunkDelayMs: 5,
  }]);
  const session: SessionFile = {
    sessionId: "s1",
    timestamp: "2026-11-22T08:00:00.000Z",
    model: "m",
    systemPrompt: "sys",
    projectPath: "/p",
    mode: "agent",
    messages: [
      { role: "user", content: "do it", timestamp: "t" },
      {
        role: "assistant",
        content: "reply one",
        timestamp: "t",
        usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
      },
      { role: "user", content: "[x] Result:\nok", timestamp: "t" },
      { role: "assistant", content: "reply two", timestamp: "t" },
    ],
    metadata: {
      totalTokens: 5,
      promptTokens: 3,
      completionTokens: 2,
      duration: 1,
      turns: 2,
      toolCalls: 0,
      parseErrors: 0,
      filesChanged: [],
    },
  };
  assert.deepEqual(parseReplies(JSON.stringify(session)), repliesFromSession(session));
  assert.deepEqual(repliesFromSession(session), [
    { text: "reply one", usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 } },
    { text: "reply two" },
  ]);
});

Deno.test("`parseReplies()` names the file and the reply when the format is wrong", () => {
  assert.throws(() => parseReplies("{", "bad.json"), /Cannot read replay script "bad\.json"/);
  assert.throws(() => parseReplies('{"a":1}', "x.json"), /expected an array of replies/);
  assert.throws(() => parseReplies('[{"text":1}]', "y.json"), /reply 1 must be an object/);
});

Deno.test("`loadReplies()` reads a fixture file from disk", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_replay_" });
  try {
    const path = join(dir, "replies.json");
    await Deno.writeTextFile(path, JSON.stringify([{ text: "hello" }]));
    assert.deepEqual(await loadReplies(path), [{ text: "hello" }]);
    const p = replayProvider(() => loadReplies(path));
    const events = await collect(p.stream(ask("x")));
    assert.deepEqual(events[0], { type: "text", text: "hello" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
