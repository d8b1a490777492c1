import assert from "node:assert/strict";
import { join } from "node:path";
import { reset } from "@logtape/logtape";
import type { LlmProvider, StreamEvent } from "../../../interfaces/agent.ts";
import { createOpenAIProvider } from "../../../core/llm/openai.ts";
import {
  DEFAULT_RETRY_POLICY,
  formatRetry,
  retryDelay,
  type RetryInfo,
  type RetryPolicy,
  withRetry,
} from "../../../core/llm/retry.ts";
import { setupLogs } from "../../../core/history/logs.ts";
import { type ScriptedReply, startServer, type TestServer } from "../../support/server.ts";

/** A sleep that records the waits and returns at once. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: (ms: number) => (waits.push(ms), Promise.resolve()) };
}

function openai(server: TestServer): LlmProvider {
  return createOpenAIProvider({
    baseURL: server.baseUrl,
    apiKey: "test-key",
    params: { model: "test-model" },
  });
}

async function collect(p: LlmProvider, signal?: AbortSignal) {
  const events: StreamEvent[] = [];
  const messages = [{ role: "user" as const, content: "hi" }];
  for await (const event of p.stream({ messages, signal })) events.push(event);
  const text = events.flatMap((e) => e.type === "text" ? [e.text] : []).join("");
  const end = events.at(-1) as Extract<StreamEvent, { type: "end" }>;
  assert.equal(end.type, "end");
  assert.equal(events.filter((e) => e.type === "end").length, 1, "exactly one end event");
  return { text, end };
}

async function run(replies: ScriptedReply[], policy: Partial<RetryPolicy> = {}) {
  await using server = await startServer({ replies });
  const { waits, sleep } = recordingSleep();
  const retries: RetryInfo[] = [];
  const p = withRetry(openai(server), { ...DEFAULT_RETRY_POLICY, ...policy }, {
    sleep,
    onRetry: (info) => retries.push(info),
  });
  const result = await collect(p);
  return { ...result, waits, retries, requests: server.requests.length };
}

Deno.test("`withRetry()` waits as Retry-After asks and then succeeds when the server sends 429", async () => {
  const r = await run([{ status: 429, retryAfter: "2" }, { text: "Hello again" }]);
  assert.equal(r.text, "Hello again");
  assert.equal(r.end.reason, "stop");
  assert.deepEqual(r.waits, [2000]);
  assert.equal(r.requests, 2);
  assert.equal(r.retries.length, 1);
  assert.equal(r.retries[0].attempt, 1);
  assert.equal(r.retries[0].max, 3);
  assert.equal(r.retries[0].error.status, 429);
  assert.equal(formatRetry(r.retries[0]), "retrying in 2 s (attempt 1/3): 429 rate limited");
});

Deno.test("`withRetry()` caps the wait at maxRetryAfterMs when retry-after-ms is larger", async () => {
  const r = await run([{ status: 429, retryAfterMs: 90_000 }, { text: "ok" }], {
    maxRetryAfterMs: 5000,
  });
  assert.deepEqual(r.waits, [5000]);
  assert.equal(r.text, "ok");
});

Deno.test("`withRetry()` backs off 1, 2 s and then succeeds when the server answers 500 and 503", async () => {
  const r = await run([{ status: 500 }, { status: 503 }, { text: "Fine now" }]);
  assert.equal(r.text, "Fine now");
  assert.equal(r.end.reason, "stop");
  assert.deepEqual(r.waits, [1000, 2000]);
  assert.deepEqual(r.retries.map((i) => i.attempt), [1, 2]);
  assert.equal(r.end.retries, 2, "the end event counts the retries");
  assert.equal(r.requests, 3);
  assert.equal(formatRetry(r.retries[1]), "retrying in 2 s (attempt 2/3): 503 server error");
});

Deno.test("`withRetry()` retries when the stream drops before any text", async () => {
  const r = await run([{ text: "lost words", dropAfterChunks: 0 }, { text: "Second try" }]);
  assert.equal(r.text, "Second try");
  assert.equal(r.end.reason, "stop");
  assert.deepEqual(r.waits, [1000]);
  assert.equal(r.retries[0].error.kind, "network");
  assert.equal(r.requests, 2);
});

Deno.test("`withRetry()` does not retry and marks afterText when the stream drops after text", async () => {
  const r = await run([
    { chunks: ["Part one ", "part two ", "part three"], dropAfterChunks: 2 },
    { text: "never served" },
  ]);
  assert.equal(r.text, "Part one part two ");
  assert.equal(r.end.reason, "error");
  assert.equal(r.end.error?.afterText, true);
  assert.equal(r.end.error?.kind, "network");
  assert.deepEqual(r.waits, []);
  assert.equal(r.requests, 1);
});

for (const [status, kind] of [[401, "auth"], [400, "bad_request"], [404, "not_found"]] as const) {
  Deno.test(`\`withRetry()\` passes the error through without retrying when the server answers ${status}`, async () => {
    const r = await run([{ status }, { text: "never served" }]);
    assert.equal(r.end.reason, "error");
    assert.equal(r.end.error?.kind, kind);
    assert.equal(r.end.error?.status, status);
    assert.equal(r.end.error?.afterText, false);
    assert.doesNotMatch(r.end.error?.message ?? "", /gave up/);
    assert.deepEqual(r.waits, []);
    assert.equal(r.requests, 1, "exactly one request reached the server");
  });
}

Deno.test("`withRetry()` gives up after maxRetries when every attempt fails", async () => {
  const r = await run([{ status: 500 }, { status: 500 }, { status: 502 }, { status: 500 }, {
    text: "too late",
  }]);
  assert.equal(r.end.reason, "error");
  assert.equal(r.end.error?.status, 500);
  assert.match(r.end.error?.message ?? "", /gave up after 3 retries\)$/);
  assert.equal(r.end.retries, 3);
  assert.deepEqual(r.waits, [1000, 2000, 4000]);
  assert.equal(r.requests, 4);
});

Deno.test("`withRetry()` caps the backoff at maxDelayMs when retries go on", async () => {
  const failures: ScriptedReply[] = Array.from({ length: 5 }, () => ({ status: 503 }));
  const r = await run([...failures, { text: "done" }], {
    maxRetries: 5,
    baseDelayMs: 500,
    maxDelayMs: 3000,
  });
  assert.equal(r.text, "done");
  assert.deepEqual(r.waits, [500, 1000, 2000, 3000, 3000]);
  assert.equal(r.retries.at(-1)?.max, 5);
});

Deno.test("`withRetry()` ends with reason aborted when the signal aborts during a wait", async () => {
  await using server = await startServer({ replies: [{ status: 429 }, { text: "never" }] });
  const controller = new AbortController();
  const waits: number[] = [];
  const p = withRetry(openai(server), DEFAULT_RETRY_POLICY, {
    sleep: (ms, signal) => {
      waits.push(ms);
      controller.abort();
      assert.equal(signal?.aborted, true, "the request's signal reaches the sleep");
      return Promise.resolve();
    },
  });
  const { end } = await collect(p, controller.signal);
  assert.deepEqual(end, { type: "end", reason: "aborted" });
  assert.deepEqual(waits, [1000]);
  assert.equal(server.requests.length, 1);
});

Deno.test("`withRetry()` stops a real wait at once when the signal aborts", async () => {
  await using server = await startServer({ replies: [{ status: 503 }, { text: "never" }] });
  const controller = new AbortController();
  const p = withRetry(openai(server), { ...DEFAULT_RETRY_POLICY, baseDelayMs: 20_000 }, {
    onRetry: () => setTimeout(() => controller.abort(), 20),
  });
  const started = performance.now();
  const { end } = await collect(p, controller.signal);
  assert.equal(end.reason, "aborted");
  assert.ok(performance.now() - started < 5000, "did not sit out the 20 s wait");
});

Deno.test("`withRetry()` sleeps for real with the default sleep when none is given", async () => {
  await using server = await startServer({ replies: [{ status: 500 }, { text: "slept" }] });
  const p = withRetry(openai(server), { ...DEFAULT_RETRY_POLICY, baseDelayMs: 60 });
  const started = performance.now();
  const { text } = await collect(p);
  assert.equal(text, "slept");
  assert.ok(performance.now() - started >= 55, "waited about baseDelayMs");
});

Deno.test("`withRetry()` writes each retry to retry.log when logs are set up", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const logs = await setupLogs(dir, { debug: false });
    const r = await run([{ status: 429, retryAfter: "3" }, { status: 500 }, { text: "ok" }]);
    await logs.dispose();
    assert.equal(r.text, "ok");
    const lines = (await Deno.readTextFile(join(dir, "retry.log"))).trim().split("\n");
    assert.equal(lines.length, 2);
    assert.match(lines[0], /in 3000 ms \(attempt 1\/3\): 429 rate limited/);
    assert.match(lines[1], /in 2000 ms \(attempt 2\/3\): 500 server error/);
  } finally {
    await reset();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`withRetry()` keeps the inner provider's name, model and endpoint", () => {
  const inner: LlmProvider = {
    name: "fake",
    model: "m1",
    endpoint: "http://x/v1",
    stream: async function* () {
      yield { type: "end", reason: "stop" };
    },
  };
  const p = withRetry(inner, DEFAULT_RETRY_POLICY);
  assert.deepEqual([p.name, p.model, p.endpoint], ["fake", "m1", "http://x/v1"]);
});

Deno.test("`retryDelay()` doubles from the base and prefers the server's wait when given", () => {
  const policy = { maxRetries: 9, baseDelayMs: 1000, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };
  const error = { kind: "server" as const, message: "x" };
  assert.deepEqual([0, 1, 2, 3, 4].map((n) => retryDelay(policy, n, error)), [
    1000,
    2000,
    4000,
    8000,
    8000,
  ]);
  assert.equal(retryDelay(policy, 3, { ...error, retryAfterMs: 1500 }), 1500);
  assert.equal(retryDelay(policy, 0, { ...error, retryAfterMs: 120_000 }), 60_000);
});
