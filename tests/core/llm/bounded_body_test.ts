import assert from "node:assert/strict";
import { boundedResponse, ServerFloodError } from "../../../core/llm/bounded_body.ts";

const LIMITS = { event: 100, other: 300 };
const enc = new TextEncoder();

/** A response whose body arrives in `chunks`, read through the bounds. */
async function read(chunks: string[], type = "text/event-stream"): Promise<string> {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const k of chunks) c.enqueue(enc.encode(k));
      c.close();
    },
  });
  const r = boundedResponse(new Response(body, { headers: { "content-type": type } }), LIMITS);
  // As the `openai` client reads a body: a reader of `response.body`.
  const reader = r.body!.getReader();
  let out = "";
  const dec = new TextDecoder();
  for (let c = await reader.read(); !c.done; c = await reader.read()) {
    out += dec.decode(c.value, { stream: true });
  }
  return out + dec.decode();
}

const event = (n: number) => `data: ${"x".repeat(n)}\n\n`;

Deno.test("boundedResponse() passes a stream of events of any total size, cut anywhere", async () => {
  // Lines end with LF, CRLF or a lone CR, as the format allows.
  const text = [
    event(80),
    event(80).replaceAll("\n", "\r\n"),
    ": ping\n\n",
    event(80).replaceAll("\n", "\r"),
    event(80),
  ].join("").repeat(20);
  for (const size of [1, 2, 3, 7, 64, text.length]) {
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
    assert.equal(await read(chunks), text, `chunks of ${size}`);
  }
});

Deno.test("boundedResponse() stops an event that grows past the limit: one long line, or lines without a blank one", async () => {
  const cases = [
    ["data: " + "x".repeat(200)],
    Array.from({ length: 40 }, () => "data: xxxx\n"),
    Array.from({ length: 40 }, () => "data: xxxx\r"),
    Array.from({ length: 40 }, () => "data: xxxx\r\n"),
    ["data: 1\r", "\ndata: 2\r\n", "data: " + "x".repeat(50), "x".repeat(50)],
  ];
  for (const chunks of cases) {
    await assert.rejects(() => read(chunks), (e) => e instanceof ServerFloodError, chunks[0]);
  }
  // A blank line split across chunks ("\r" | "\n") ends the event.
  const ok = ["data: " + "x".repeat(60) + "\r\n\r", "\n", "data: " + "y".repeat(60) + "\n\n"];
  assert.equal(await read(ok), ok.join(""));
});

Deno.test("boundedResponse() bounds an answer that is not an event stream as a whole", async () => {
  assert.equal(await read(["{", "x".repeat(290), "}"], "application/json"), `{${"x".repeat(290)}}`);
  await assert.rejects(
    () => read(Array.from({ length: 4 }, () => "x".repeat(100)), "application/json"),
    /an answer larger than/,
  );
});

Deno.test("boundedResponse() keeps the status, headers and URL", async () => {
  const inner = new Response("{}", { status: 503, headers: { "retry-after": "2" } });
  Object.defineProperty(inner, "url", { value: "http://127.0.0.1:1/v1/chat/completions" });
  const r = boundedResponse(inner, LIMITS);
  assert.deepEqual([r.status, r.headers.get("retry-after"), r.url], [503, "2", inner.url]);
  assert.equal(await r.text(), "{}");
  // A stream keeps its response: only the reader its client takes is checked.
  const sse = new Response("data: {}\n\n", { headers: { "content-type": "text/event-stream" } });
  assert.equal(boundedResponse(sse, LIMITS), sse);
});
