import assert from "node:assert/strict";
import OpenAI from "openai";
import { startServer } from "./server.ts";

const CHAT = { model: "m1", messages: [{ role: "user" as const, content: "Say hi" }] };

function post(baseUrl: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** The `data:` payloads of an SSE body, in order. */
function dataLines(text: string): string[] {
  return text.split("\n\n").filter((e) => e).map((e) => {
    assert.match(e, /^data: /);
    return e.slice("data: ".length);
  });
}

function client(baseUrl: string, apiKey = "k") {
  return new OpenAI({ baseURL: baseUrl, apiKey, maxRetries: 0 });
}

Deno.test("`startServer()` streams SSE in the OpenAI wire format when the request streams", async () => {
  await using server = await startServer({
    replies: [{ text: "Hello big world", usage: { prompt_tokens: 7, completion_tokens: 3 } }],
  });
  const res = await post(server.baseUrl, {
    ...CHAT,
    stream: true,
    stream_options: { include_usage: true },
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  const events = dataLines(await res.text());
  assert.equal(events.at(-1), "[DONE]");
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
  assert.equal(chunks[0].object, "chat.completion.chunk");
  assert.equal(chunks[0].model, "m1");
  assert.deepEqual(chunks[0].choices[0].delta, { role: "assistant", content: "Hello " });
  assert.deepEqual(chunks.slice(1, 3).map((c) => c.choices[0].delta.content), ["big ", "world"]);
  assert.equal(chunks[3].choices[0].finish_reason, "stop");
  assert.deepEqual(chunks[3].choices[0].delta, {});
  assert.deepEqual(chunks[4].choices, []);
  assert.deepEqual(chunks[4].usage, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  assert.equal(chunks.length, 5);
});

Deno.test("`startServer()` sends no usage chunk when not asked or when usage is false", async () => {
  await using server = await startServer({ replies: [{ text: "a" }, { text: "b", usage: false }] });
  const plain = dataLines(await (await post(server.baseUrl, { ...CHAT, stream: true })).text());
  const refused = dataLines(
    await (await post(server.baseUrl, {
      ...CHAT,
      stream: true,
      stream_options: { include_usage: true },
    })).text(),
  );
  for (const events of [plain, refused]) {
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    assert.ok(chunks.every((c) => c.choices.length === 1 && !c.usage), JSON.stringify(chunks));
  }
});

Deno.test("`startServer()` answers plain JSON when the request does not stream", async () => {
  await using server = await startServer({
    replies: [{ chunks: ["Hel", "lo"], finishReason: "length" }],
  });
  const completion = await client(server.baseUrl).chat.completions.create(CHAT);
  assert.equal(completion.object, "chat.completion");
  assert.equal(completion.choices[0].message.content, "Hello");
  assert.equal(completion.choices[0].finish_reason, "length");
  assert.ok(completion.usage && completion.usage.total_tokens > 0);
  assert.equal(server.requests[0].body.stream, undefined);
});

Deno.test("`startServer()` streams explicit chunks through the real openai client", async () => {
  await using server = await startServer({ replies: [{ chunks: ["<tool", "_call>", "\n"] }] });
  const stream = await client(server.baseUrl).chat.completions.create({ ...CHAT, stream: true });
  const pieces: string[] = [];
  for await (const chunk of stream) {
    const content = chunk.choices[0]?.delta?.content;
    if (content) pieces.push(content);
  }
  assert.deepEqual(pieces, ["<tool", "_call>", "\n"]);
});

Deno.test("`startServer()` lists the configured models on GET /v1/models", async () => {
  await using server = await startServer({ models: ["alpha", "beta"] });
  const ids: string[] = [];
  for await (const model of client(server.baseUrl).models.list()) ids.push(model.id);
  assert.deepEqual(ids, ["alpha", "beta"]);
  assert.equal(server.requests[0].method, "GET");
  assert.equal(server.requests[0].path, "/v1/models");
});

Deno.test("`startServer()` answers 500 naming the exhausted script when replies run out", async () => {
  await using server = await startServer({ replies: [{ text: "only" }] });
  await (await post(server.baseUrl, CHAT)).text();
  const res = await post(server.baseUrl, CHAT);
  assert.equal(res.status, 500);
  const body = await res.json();
  assert.match(body.error.message, /script is exhausted/);
  assert.equal(server.requests.length, 2);
});

Deno.test("`push()` appends replies and `loop` restarts the script", async () => {
  await using server = await startServer();
  server.push({ text: "pushed" });
  assert.equal(
    (await (await post(server.baseUrl, CHAT)).json()).choices[0].message.content,
    "pushed",
  );
  await using looping = await startServer({ replies: [{ text: "a" }, { text: "b" }], loop: true });
  const texts = [];
  for (let i = 0; i < 3; i++) {
    texts.push((await (await post(looping.baseUrl, CHAT)).json()).choices[0].message.content);
  }
  assert.deepEqual(texts, ["a", "b", "a"]);
});

Deno.test("`startServer()` injects a status with retry headers when the reply has one", async () => {
  await using server = await startServer({
    replies: [{ status: 429, errorMessage: "Slow down", retryAfter: "3", retryAfterMs: 2500 }],
  });
  const res = await post(server.baseUrl, { ...CHAT, stream: true });
  assert.equal(res.status, 429);
  assert.equal(res.headers.get("retry-after"), "3");
  assert.equal(res.headers.get("retry-after-ms"), "2500");
  const body = await res.json();
  assert.equal(body.error.message, "Slow down");
  assert.equal(body.error.type, "rate_limit_error");
  assert.equal(server.requests.length, 1);
});

Deno.test("`startServer()` answers 401 when the key differs from its apiKey", async () => {
  await using server = await startServer({ apiKey: "secret", replies: [{ text: "ok" }] });
  const denied = await post(server.baseUrl, CHAT, { authorization: "Bearer wrong" });
  assert.equal(denied.status, 401);
  await denied.body?.cancel();
  const allowed = await post(server.baseUrl, CHAT, { authorization: "Bearer secret" });
  assert.equal((await allowed.json()).choices[0].message.content, "ok");
  assert.deepEqual(server.requests.map((r) => r.headers.authorization), [
    "Bearer wrong",
    "Bearer secret",
  ]);
});

Deno.test("`startServer()` keeps the reply when it rejects stream_options", async () => {
  await using server = await startServer({
    replies: [{ text: "kept", rejectStreamOptions: true }],
  });
  const rejected = await post(server.baseUrl, { ...CHAT, stream_options: { include_usage: true } });
  assert.equal(rejected.status, 400);
  assert.match((await rejected.json()).error.message, /stream_options is not supported/);
  const served = await post(server.baseUrl, CHAT);
  assert.equal((await served.json()).choices[0].message.content, "kept");
});

Deno.test("`startServer()` breaks the connection after N chunks when dropAfterChunks is set", async () => {
  await using server = await startServer({
    replies: [{ text: "one two three", dropAfterChunks: 1 }],
  });
  const res = await post(server.baseUrl, { ...CHAT, stream: true });
  assert.equal(res.status, 200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let received = "";
  await assert.rejects(async () => {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value;
    }
  }, TypeError);
  assert.match(received, /"content":"one "/);
  assert.doesNotMatch(received, /two|\[DONE\]/);
});

Deno.test("`startServer()` waits between chunks when chunkDelayMs is set", async () => {
  await using server = await startServer({ replies: [{ text: "a b c d", chunkDelayMs: 60 }] });
  const started = performance.now();
  const stream = await client(server.baseUrl).chat.completions.create({ ...CHAT, stream: true });
  const arrivals: number[] = [];
  for await (const chunk of stream) {
    if (chunk.choices[0]?.delta?.content) arrivals.push(performance.now() - started);
  }
  assert.equal(arrivals.length, 4);
  assert.ok(arrivals[3] - arrivals[0] >= 150, `chunks arrived at ${arrivals.join(", ")}`);
});

Deno.test("`close()` stops a slow stream and a delayed answer without waiting for them", async () => {
  const server = await startServer({
    replies: [{ text: "a b c", chunkDelayMs: 10_000 }, { text: "late", delayMs: 10_000 }],
  });
  const res = await post(server.baseUrl, { ...CHAT, stream: true });
  const reader = res.body!.getReader();
  await reader.read();
  const delayed = post(server.baseUrl, CHAT);
  while (server.requests.length < 2) await new Promise((r) => setTimeout(r, 5));
  const started = performance.now();
  await server.close();
  assert.ok(performance.now() - started < 2000);
  await assert.rejects(async () => {
    while (!(await reader.read()).done);
  });
  await (await delayed).body?.cancel();
});

Deno.test("`startServer()` answers 404 for an unknown endpoint", async () => {
  await using server = await startServer();
  const res = await fetch(`${server.baseUrl}/embeddings`, { method: "POST", body: "{}" });
  assert.equal(res.status, 404);
  assert.match((await res.json()).error.message, /Unknown endpoint "POST \/v1\/embeddings"/);
  assert.deepEqual(server.requests[0].body, {});
});

Deno.test("server CLI prints its base URL first and serves the script file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const script = `${dir}/replies.json`;
    await Deno.writeTextFile(script, JSON.stringify({ replies: [{ text: "from file" }] }));
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("./server.ts", import.meta.url).pathname, "--script", script],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    try {
      const { value } = await lines.read();
      const baseUrl = value!.split("\n")[0];
      assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const body = await (await post(baseUrl, CHAT)).json();
      assert.equal(body.choices[0].message.content, "from file");
    } finally {
      child.kill("SIGTERM");
      await lines.cancel();
      const log = await new Response(child.stderr).text();
      await child.status;
      assert.match(log, /POST \/v1\/chat\/completions -> 200/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
