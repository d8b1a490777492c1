import assert from "node:assert/strict";
import type { ChatMessage } from "../../../interfaces/agent.ts";
import { BodyEncoder, type BodyOptions } from "../../../core/llm/request_body.ts";
import { createOpenAIProvider } from "../../../core/llm/openai.ts";
import { startServer } from "../../support/server.ts";

const AWKWARD = 'quotes " and \\ backslashes, a newline\n, a tab\t, \u2028, emoji 🙂, lone \ud800';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
/** A body built on its own, sharing nothing with other requests. */
const requestBody = (o: BodyOptions, messages: ChatMessage[], usage: boolean) =>
  new BodyEncoder().body(o, messages, usage);

Deno.test("`BodyEncoder.body()` bytes are the JSON of its object, with every field the options set", () => {
  const messages: ChatMessage[] = [
    { role: "system", content: "You are terse." },
    { role: "user", content: AWKWARD },
    { role: "assistant", content: "" },
  ];
  const { params, bytes } = requestBody(
    {
      params: { model: 'm"1', temperature: 0.2, topP: 0.9, topK: 40, maxTokens: 100 },
      maxTokensField: "max_completion_tokens",
    },
    messages,
    true,
  );
  const json = text(bytes);
  assert.equal(json.length, JSON.stringify(params).length, "no byte more or less");
  assert.deepEqual(JSON.parse(json), JSON.parse(JSON.stringify(params)));
  assert.deepEqual(JSON.parse(json), {
    messages,
    model: 'm"1',
    stream: true,
    stream_options: { include_usage: true },
    temperature: 0.2,
    top_p: 0.9,
    top_k: 40,
    max_completion_tokens: 100,
  });
  const bare = requestBody({ params: { model: "m" } }, [], false);
  assert.deepEqual(JSON.parse(text(bare.bytes)), { messages: [], model: "m", stream: true });
  const one = requestBody({ params: { model: "m" } }, messages.slice(0, 1), false);
  assert.equal(text(one.bytes), JSON.stringify({ messages: messages.slice(0, 1), ...rest("m") }));
});

const rest = (model: string) => ({ model, stream: true });
const options = { params: { model: "m" } };

Deno.test("`BodyEncoder` follows a conversation that grows, changes a message, or starts again", () => {
  const encoder = new BodyEncoder();
  let buffer: ArrayBufferLike | undefined;
  const sent = (messages: ChatMessage[]) => {
    const { bytes } = encoder.body(options, messages, false);
    assert.equal(text(bytes), JSON.stringify({ messages, ...rest("m") }));
    // Each body is built in the encoder's one buffer (grown at times), not apart.
    if (buffer !== undefined && bytes.buffer !== buffer) {
      assert.ok(bytes.buffer.byteLength > buffer.byteLength, "a new buffer only to grow");
    }
    buffer = bytes.buffer;
    encoder.release();
  };
  const a: ChatMessage = { role: "system", content: "sys" };
  const b: ChatMessage = { role: "user", content: AWKWARD };
  const c: ChatMessage = { role: "assistant", content: "ok" };
  sent([a]);
  sent([a, b]);
  sent([a, b, c]);
  b.content = "changed in place";
  sent([a, b, c]);
  c.role = "user";
  sent([a, b, c]);
  // Compaction: a message replaced by another object, then some dropped.
  sent([a, { role: "user", content: "summary" }, c]);
  sent([a, c]);
  sent([]);
  sent([c, a]);
  // Growth well past the first buffer.
  const long: ChatMessage[] = [a];
  for (let i = 0; i < 300; i++) {
    long.push({ role: i % 2 ? "assistant" : "user", content: `${i} ${"x".repeat(i * 7)} é` });
    sent(long);
  }
  sent(long.slice(0, 10));
});

Deno.test("a body asked for before the last one was released leaves that one intact", () => {
  const encoder = new BodyEncoder();
  const a: ChatMessage = { role: "system", content: "sys" };
  const b: ChatMessage = { role: "user", content: AWKWARD };
  const first = encoder.body(options, [a, b], false).bytes;
  const before = text(first);
  const second = encoder.body(options, [{ role: "user", content: "another" }], false).bytes;
  assert.equal(text(first), before, "the first body's bytes are unchanged");
  assert.equal(
    text(second),
    JSON.stringify({ messages: [{ role: "user", content: "another" }], ...rest("m") }),
  );
  assert.notEqual(second.buffer, first.buffer);
  encoder.release();
  // Released: the next body is built over the first, from the messages it kept.
  const third = encoder.body(options, [a, b, { role: "assistant", content: "ok" }], false).bytes;
  assert.equal(third.buffer, first.buffer);
  assert.equal(
    text(third),
    JSON.stringify({ messages: [a, b, { role: "assistant", content: "ok" }], ...rest("m") }),
  );
});

Deno.test("a growing conversation reaches the server intact on every turn, streamed", async () => {
  await using server = await startServer({ replies: [{ text: "one" }, { text: "two" }] });
  const provider = createOpenAIProvider({
    baseURL: server.baseUrl,
    apiKey: "",
    params: { model: "test-model" },
  });
  const messages: ChatMessage[] = [{ role: "system", content: "sys" }];
  for (const word of ["hello", AWKWARD]) {
    messages.push({ role: "user", content: word });
    let text = "";
    for await (const ev of provider.stream({ messages })) if (ev.type === "text") text += ev.text;
    messages.push({ role: "assistant", content: text });
  }
  assert.deepEqual(messages.map((m) => m.content), ["sys", "hello", "one", AWKWARD, "two"]);
  const bodies = server.requests.map((r) => r.body);
  assert.deepEqual(bodies[1].messages, messages.slice(0, 4));
  assert.equal(bodies[1].stream, true);
  assert.equal(server.requests[1].headers["content-type"], "application/json");
});
