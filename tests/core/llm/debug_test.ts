import assert from "node:assert/strict";
import { join } from "node:path";
import type { LlmProvider, StreamEvent } from "../../../interfaces/agent.ts";
import { setupLogs } from "../../../core/history/logs.ts";
import { withDebugLog } from "../../../core/llm/debug.ts";

/** A provider that streams fixed events (a small fake of the real interface). */
function fixed(events: StreamEvent[]): LlmProvider {
  return {
    name: "fake",
    model: "m1",
    endpoint: "http://127.0.0.1:9/v1/",
    async *stream() {
      for (const e of events) yield e;
    },
  };
}

async function debugLog(fn: () => Promise<void>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_llm_debug_" });
  try {
    const logs = await setupLogs(dir, { debug: true });
    try {
      await fn();
    } finally {
      await logs.dispose();
    }
    return await Deno.readTextFile(join(dir, "debug.log"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("`withDebugLog()` writes the request body and the whole response, key redacted", async () => {
  const events: StreamEvent[] = [
    { type: "text", text: "Hello {there}" },
    { type: "text", text: " world" },
    { type: "usage", usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 } },
    { type: "end", reason: "stop" },
  ];
  const seen: StreamEvent[] = [];
  const log = await debugLog(async () => {
    const p = withDebugLog(fixed(events), {
      params: { model: "m1", temperature: 0.2 },
      hasKey: true,
    });
    const messages = [{ role: "user" as const, content: "key sk-secret123456 {x}" }];
    for await (const e of p.stream({ messages })) seen.push(e);
  });
  assert.deepEqual(seen, events, "events pass through unchanged");
  const [request] = log.split("\n").filter((l) => l.includes("minoc·debug·llm: request 1 "));
  const body = JSON.parse(request.slice(request.indexOf("{")));
  assert.equal(body.url, "http://127.0.0.1:9/v1/chat/completions");
  assert.deepEqual(body.body, {
    model: "m1",
    messages: [{ role: "user", content: "key [REDACTED] {x}" }],
    stream: true,
    temperature: 0.2,
  });
  assert.equal(body.headers.authorization, "[REDACTED]");
  const [response] = log.split("\n").filter((l) => l.includes("minoc·debug·llm: response 1 "));
  const reply = JSON.parse(response.slice(response.indexOf("{")));
  assert.equal(reply.text, "Hello {there} world");
  assert.equal(reply.reason, "stop");
  assert.equal(reply.chunks, 2);
  assert.deepEqual(reply.usage, { promptTokens: 5, completionTokens: 2, totalTokens: 7 });
  assert.equal(typeof reply.firstTokenMs, "number");
  assert.doesNotMatch(log, /sk-secret/);
});

Deno.test("`withDebugLog()` logs a failed response with its error and no first token", async () => {
  const error = { kind: "server" as const, message: "HTTP 500 from the server", status: 500 };
  const log = await debugLog(async () => {
    const p = withDebugLog(fixed([{ type: "end", reason: "error", error }]), {
      params: { model: "m1" },
      hasKey: false,
    });
    for await (const _ of p.stream({ messages: [] })) { /* drain */ }
  });
  const line = log.split("\n").find((l) => l.includes("response 1 "))!;
  const reply = JSON.parse(line.slice(line.indexOf("{")));
  assert.deepEqual(reply.error, error);
  assert.equal(reply.firstTokenMs, null);
  assert.doesNotMatch(log, /authorization/);
});
