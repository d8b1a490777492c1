import assert from "node:assert/strict";
import type {
  ChatRequest,
  LlmProvider,
  ModelParams,
  StreamEvent,
} from "../../../interfaces/agent.ts";
import { createOpenAIProvider } from "../../../core/llm/openai.ts";
import { isRetryable } from "../../../core/llm/errors.ts";
import { VERSION as SDK_VERSION } from "openai/version";
import { type ScriptedReply, startServer, type TestServer } from "../../support/server.ts";

const MESSAGES: ChatRequest["messages"] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "Say hello" },
];

function provider(server: TestServer, extra: Partial<ModelParams> = {}, timeoutMs?: number) {
  return createOpenAIProvider({
    baseURL: server.baseUrl,
    apiKey: "test-key",
    params: { model: "test-model", ...extra },
    timeoutMs,
  });
}

async function collect(p: LlmProvider, request: Partial<ChatRequest> = {}) {
  const events: StreamEvent[] = [];
  for await (const event of p.stream({ messages: MESSAGES, ...request })) events.push(event);
  const text = events.flatMap((e) => e.type === "text" ? [e.text] : []).join("");
  const end = events.at(-1);
  assert.equal(end?.type, "end", "the last event must be the end");
  assert.equal(events.filter((e) => e.type === "end").length, 1);
  return { events, text, end: end as Extract<StreamEvent, { type: "end" }> };
}

async function errorOf(replies: ScriptedReply[], extra: { apiKey?: string } = {}) {
  await using server = await startServer({ replies, ...extra });
  const { end, text } = await collect(provider(server));
  assert.equal(end.reason, "error");
  assert.ok(end.error);
  return { error: end.error, text, server };
}

Deno.test("`stream()` assembles streamed text and reports usage when the server streams", async () => {
  await using server = await startServer({
    replies: [{ text: "Hello there, friend.", usage: { prompt_tokens: 11, completion_tokens: 5 } }],
  });
  const p = provider(server);
  assert.equal(p.name, "openai");
  assert.equal(p.model, "test-model");
  assert.equal(p.endpoint, server.baseUrl);
  const { events, text, end } = await collect(p);
  assert.equal(text, "Hello there, friend.");
  assert.ok(events.filter((e) => e.type === "text").length >= 3, "text arrives in pieces");
  assert.deepEqual(events.filter((e) => e.type === "usage"), [
    { type: "usage", usage: { promptTokens: 11, completionTokens: 5, totalTokens: 16 } },
  ]);
  assert.deepEqual(end, { type: "end", reason: "stop" });
  const body = server.requests[0].body;
  assert.equal(server.requests[0].path, "/v1/chat/completions");
  assert.equal(server.requests[0].headers.authorization, "Bearer test-key");
  assert.equal(body.model, "test-model");
  assert.equal(body.stream, true);
  assert.deepEqual(body.stream_options, { include_usage: true });
  assert.deepEqual(body.messages, MESSAGES);
  assert.equal(body.tools, undefined);
});

Deno.test("`stream()` sends sampling parameters only when they are set", async () => {
  await using server = await startServer({ replies: [{ text: "a" }, { text: "b" }] });
  await collect(provider(server));
  await collect(provider(server, { temperature: 0.2, topP: 0.9, topK: 40, maxTokens: 256 }));
  const [bare, full] = server.requests.map((r) => r.body);
  for (const key of ["temperature", "top_p", "top_k", "max_tokens"]) {
    assert.equal(key in bare, false, `${key} must be absent when unset`);
  }
  assert.equal(full.temperature, 0.2);
  assert.equal(full.top_p, 0.9);
  assert.equal(full.top_k, 40);
  assert.equal(full.max_tokens, 256);
  assert.equal(full.model, "test-model");
});

Deno.test("`stream()` sends temperature 0 because zero is a set value", async () => {
  await using server = await startServer({ replies: [{ text: "a" }] });
  await collect(provider(server, { temperature: 0 }));
  assert.equal(server.requests[0].body.temperature, 0);
});

Deno.test("`stream()` retries without stream_options and stops sending them when the server rejects them", async () => {
  await using server = await startServer({
    replies: [{ text: "first", rejectStreamOptions: true }, {
      text: "second",
      rejectStreamOptions: true,
    }],
  });
  const p = provider(server);
  const one = await collect(p);
  assert.equal(one.text, "first");
  assert.equal(one.end.reason, "stop");
  assert.equal(one.events.some((e) => e.type === "usage"), false);
  const two = await collect(p);
  assert.equal(two.text, "second");
  const sent = server.requests.map((r) => "stream_options" in r.body);
  assert.deepEqual(sent, [true, false, false]);
});

Deno.test("`stream()` ends normally without a usage event when the server sends none", async () => {
  await using server = await startServer({ replies: [{ text: "quiet", usage: false }] });
  const { events, end } = await collect(provider(server));
  assert.equal(events.some((e) => e.type === "usage"), false);
  assert.equal(end.reason, "stop");
  assert.equal(server.requests.length, 1);
});

Deno.test("`stream()` ends with reason length when the server stops at max tokens", async () => {
  await using server = await startServer({
    replies: [{ text: "cut sho", finishReason: "length" }],
  });
  const { end } = await collect(provider(server));
  assert.equal(end.reason, "length");
});

Deno.test("`stream()` ends with aborted when the signal fires mid-stream", async () => {
  await using server = await startServer({
    replies: [{ text: "one two three four five six", chunkDelayMs: 200 }],
  });
  const controller = new AbortController();
  const events: StreamEvent[] = [];
  const started = performance.now();
  for await (
    const event of provider(server).stream({ messages: MESSAGES, signal: controller.signal })
  ) {
    events.push(event);
    if (event.type === "text") controller.abort();
  }
  assert.ok(performance.now() - started < 1000, "the stream stops at once");
  assert.deepEqual(events.map((e) => e.type), ["open", "text", "end"]);
  assert.deepEqual(events.at(-1), { type: "end", reason: "aborted" });
});

Deno.test("`stream()` releases the connection when the consumer stops early", async () => {
  await using server = await startServer({
    replies: [{ text: "one two three four", chunkDelayMs: 5000 }, { text: "next" }],
  });
  const p = provider(server);
  const started = performance.now();
  for await (const event of p.stream({ messages: MESSAGES })) {
    if (event.type === "text") break;
  }
  assert.ok(performance.now() - started < 2000);
  assert.equal((await collect(p)).text, "next");
});

Deno.test("`stream()` ends with aborted when the signal fires before the headers", async () => {
  await using server = await startServer({ replies: [{ text: "late", delayMs: 300 }] });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const { events } = await collect(provider(server), { signal: controller.signal });
  // The request went out (`open`), its answer never came.
  assert.deepEqual(events, [{ type: "open" }, { type: "end", reason: "aborted" }]);
  assert.equal(server.requests.length, 1);
});

Deno.test("`stream()` sends nothing when the signal is already aborted", async () => {
  await using server = await startServer({ replies: [{ text: "never" }] });
  const { events } = await collect(provider(server), { signal: AbortSignal.abort() });
  assert.deepEqual(events, [{ type: "end", reason: "aborted" }]);
  assert.equal(server.requests.length, 0);
});

Deno.test("`stream()` reports auth with how to set the key when the server answers 401", async () => {
  const { error, server } = await errorOf([{ text: "unused" }], { apiKey: "other-key" });
  assert.equal(error.kind, "auth");
  assert.equal(error.status, 401);
  assert.match(error.message, /--api-key/);
  assert.match(error.message, /OPENAI_API_KEY/);
  assert.ok(error.message.includes(server.baseUrl));
  assert.equal(isRetryable(error), false);
});

Deno.test("`stream()` reports bad_request with the server's message when it answers 400", async () => {
  const { error } = await errorOf([{ status: 400, errorMessage: "Context length exceeded" }]);
  assert.equal(error.kind, "bad_request");
  assert.equal(error.status, 400);
  assert.match(error.message, /Context length exceeded/);
  assert.equal(isRetryable(error), false);
});

Deno.test("`stream()` reports not_found naming the model and base URL when it answers 404", async () => {
  const { error, server } = await errorOf([{ status: 404 }]);
  assert.equal(error.kind, "not_found");
  assert.match(error.message, /"test-model"/);
  assert.ok(error.message.includes(server.baseUrl));
  assert.equal(isRetryable(error), false);
});

Deno.test("`stream()` reports rate_limit with the wait when it answers 429 with Retry-After", async () => {
  const seconds = await errorOf([{ status: 429, retryAfter: "2" }]);
  assert.equal(seconds.error.kind, "rate_limit");
  assert.equal(seconds.error.status, 429);
  assert.equal(seconds.error.retryAfterMs, 2000);
  assert.equal(isRetryable(seconds.error), true);
  const millis = await errorOf([{ status: 429, retryAfterMs: 1500, retryAfter: "9" }]);
  assert.equal(millis.error.retryAfterMs, 1500);
  assert.equal(seconds.server.requests.length, 1, "the SDK must not retry by itself");
});

Deno.test("`stream()` reports server when it answers 500 and does not retry itself", async () => {
  const { error, server } = await errorOf([{ status: 500, errorMessage: "Boom" }, { text: "x" }]);
  assert.equal(error.kind, "server");
  assert.equal(error.status, 500);
  assert.match(error.message, /Boom/);
  assert.equal(error.afterText, false);
  assert.equal(isRetryable(error), true);
  assert.equal(server.requests.length, 1);
});

Deno.test("`stream()` reports network without afterText when the connection drops before text", async () => {
  const { error, text } = await errorOf([{ text: "never shown", dropAfterChunks: 0 }]);
  assert.equal(text, "");
  assert.equal(error.kind, "network");
  assert.equal(error.afterText, false);
  assert.equal(isRetryable(error), true);
});

Deno.test("`stream()` reports network with afterText when the connection drops after text", async () => {
  const { error, text, server } = await errorOf([{ text: "one two three", dropAfterChunks: 2 }]);
  assert.equal(text, "one two ");
  assert.equal(error.kind, "network");
  assert.equal(error.afterText, true);
  assert.ok(error.message.includes(server.baseUrl), error.message);
});

Deno.test("`stream()` names the URL and the cause when nothing listens on the port", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const baseURL = `http://127.0.0.1:${listener.addr.port}/v1`;
  listener.close();
  const p = createOpenAIProvider({ baseURL, apiKey: "k", params: { model: "m" } });
  const { end } = await collect(p);
  assert.equal(end.error?.kind, "network");
  assert.equal(end.error?.message, `Cannot reach ${baseURL}: connection refused`);
  assert.equal(end.error?.afterText, false);
});

Deno.test("`stream()` delivers each slow chunk as it arrives", async () => {
  await using server = await startServer({ replies: [{ text: "a b c d", chunkDelayMs: 80 }] });
  const started = performance.now();
  const arrivals: number[] = [];
  for await (const event of provider(server, {}, 2000).stream({ messages: MESSAGES })) {
    if (event.type === "text") arrivals.push(performance.now() - started);
  }
  assert.equal(arrivals.length, 4);
  assert.ok(arrivals[3] - arrivals[0] >= 200, `chunks arrived at ${arrivals.join(", ")}`);
});

Deno.test("`stream()` reports timeout with afterText when chunks stop coming for timeoutMs", async () => {
  await using server = await startServer({ replies: [{ text: "a b c", chunkDelayMs: 3000 }] });
  const { end, text } = await collect(provider(server, {}, 600));
  assert.equal(text, "a ");
  assert.equal(end.error?.kind, "timeout");
  assert.equal(end.error?.afterText, true);
});

Deno.test("`stream()` times silence from the last chunk: steady chunks outlast timeoutMs, a stall ends it on time", async () => {
  // Six chunks 250 ms apart take 1.25 s, longer than the 400 ms timeout: none of the gaps is.
  await using steady = await startServer({
    replies: [{ text: "one two three four five six", chunkDelayMs: 250 }],
  });
  const ok = await collect(provider(steady, {}, 400));
  assert.equal(ok.end.reason, "stop", JSON.stringify(ok.end));
  assert.equal(ok.text, "one two three four five six");
  // Text, then nothing: the timeout comes 600 ms after the last chunk, not later.
  await using stall = await startServer({ replies: [{ text: "a b", chunkDelayMs: 5000 }] });
  let lastText = 0;
  let endedAt = 0;
  for await (const event of provider(stall, {}, 600).stream({ messages: MESSAGES })) {
    if (event.type === "text") lastText = performance.now();
    if (event.type === "end") {
      endedAt = performance.now();
      assert.equal(event.error?.kind, "timeout");
    }
  }
  const silence = endedAt - lastText;
  assert.ok(silence >= 590 && silence < 1100, `timed out ${silence} ms after the last chunk`);
});

Deno.test("`stream()` reports timeout when the headers take longer than timeoutMs", async () => {
  await using server = await startServer({ replies: [{ text: "slow", delayMs: 1000 }] });
  const { end } = await collect(provider(server, {}, 100));
  assert.equal(end.error?.kind, "timeout");
  assert.equal(end.error?.afterText, false);
  assert.equal(isRetryable(end.error!), true);
});

Deno.test("`stream()` sends no Authorization header when the key is empty", async () => {
  await using server = await startServer({ replies: [{ text: "local" }] });
  const p = createOpenAIProvider({ baseURL: server.baseUrl, apiKey: "", params: { model: "m" } });
  const { text } = await collect(p);
  assert.equal(text, "local");
  assert.equal(server.requests[0].headers.authorization, undefined);
});

Deno.test("`stream()` tells the server nothing about the machine: no platform or runtime headers", async () => {
  await using server = await startServer({ replies: [{ text: "ok" }] });
  const { text } = await collect(createOpenAIProvider({
    baseURL: server.baseUrl,
    apiKey: "k",
    params: { model: "m" },
    timeoutMs: 60_000,
  }));
  assert.equal(text, "ok");
  const names = Object.keys(server.requests[0].headers);
  assert.deepEqual(names.filter((n) => n.startsWith("x-stainless")), []);
  assert.equal(server.requests[0].headers["user-agent"], "OpenAI/JS " + SDK_VERSION);
});

Deno.test("`stream()` says `open` once the request is sent, before the reply's first text", async () => {
  await using server = await startServer({
    replies: [{ text: "Hi.", delayMs: 150 }],
  });
  const p = provider(server);
  const seen: { type: string; at: number }[] = [];
  for await (const event of p.stream({ messages: MESSAGES })) {
    seen.push({ type: event.type, at: performance.timeOrigin + performance.now() });
  }
  assert.deepEqual(seen.map((e) => e.type).slice(0, 2), ["open", "text"]);
  assert.equal(seen.filter((e) => e.type === "open").length, 1);
  // The server held its answer back 150 ms: `open` came while it waited, not with the reply.
  const received = server.requests[0].receivedAt;
  assert.ok(seen[0].at < received + 100, `open came ${seen[0].at - received} ms after the request`);
});
