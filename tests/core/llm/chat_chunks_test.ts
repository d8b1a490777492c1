import assert from "node:assert/strict";
import { ChatChunks } from "../../../core/llm/chat_chunks.ts";
import { classifyError } from "../../../core/llm/errors.ts";

const CTX = { baseURL: "http://127.0.0.1:9/v1", model: "m" };

/**
 * A response whose body streams `pieces`, then, unless `end` is true, never ends
 * (a pull that waits for ever). Tells when the body is cancelled.
 */
function response(pieces: string[], end = true) {
  const state = { cancelled: false, pulls: 0 };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      const piece = pieces[state.pulls++];
      if (piece !== undefined) return c.enqueue(encoder.encode(piece));
      if (end) return c.close();
      return new Promise<void>(() => {});
    },
    cancel() {
      state.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { response: new Response(body, { headers: { "x-request-id": "req-9" } }), state };
}

const chunk = (content: string) => JSON.stringify({ choices: [{ index: 0, delta: { content } }] });

async function all(chunks: ChatChunks): Promise<string[]> {
  const texts: string[] = [];
  try {
    for (let batch; (batch = await chunks.next()) !== null;) {
      for (const c of batch) texts.push(c.choices[0]?.delta?.content ?? "");
    }
  } finally {
    chunks.close();
  }
  return texts;
}

Deno.test("`ChatChunks` stops at [DONE] without reading on, and cancels the rest of the body", async () => {
  const { response: r, state } = response(
    [`data: ${chunk("Hel")}\n\ndata: ${chunk("lo")}\n\n`, "data: [DONE]\n\n", "data: late\n\n"],
    false,
  );
  assert.deepEqual(await all(new ChatChunks(r)), ["Hel", "lo"]);
  assert.equal(state.pulls, 2, "nothing after [DONE] was read");
  assert.equal(state.cancelled, true);
});

Deno.test("`ChatChunks` gives a batch per read, and the chunks before [DONE] in the same read", async () => {
  const { response: r } = response([
    `data: ${chunk("a")}\n\ndata: ${chunk("b")}\n\ndata: [DONE]\n\n`,
  ]);
  const chunks = new ChatChunks(r);
  const batch = await chunks.next();
  assert.deepEqual(batch?.map((c) => c.choices[0].delta.content), ["a", "b"]);
  assert.equal(await chunks.next(), null);
  chunks.close();
});

Deno.test("`ChatChunks` ends with the body when no [DONE] comes, and leaves a read body alone", async () => {
  const { response: r, state } = response([`data: ${chunk("x")}\n`, `\ndata: ${chunk("y")}`]);
  assert.deepEqual(await all(new ChatChunks(r)), ["x", "y"]);
  assert.equal(state.cancelled, false);
  assert.deepEqual(await all(new ChatChunks(new Response(null))), []);
});

Deno.test("`ChatChunks` skips JSON that is not an object, and comments", async () => {
  const { response: r } = response([`: ping\n\ndata: null\n\ndata: 3\n\ndata: ${chunk("z")}\n\n`]);
  assert.deepEqual(await all(new ChatChunks(r)), ["z"]);
});

Deno.test("`ChatChunks` throws the client's API error for an error event or an error payload", async () => {
  const bodies = [
    `event: error\ndata: {"message":"model overloaded"}\n\n`,
    `data: {"error":{"message":"model overloaded","type":"server_error"}}\n\n`,
  ];
  for (const body of bodies) {
    const { response: r, state } = response([`data: ${chunk("a")}\n\n`, body], false);
    const chunks = new ChatChunks(r);
    assert.equal((await chunks.next())?.length, 1);
    const error = await chunks.next().then(() => null, (e) => e);
    chunks.close();
    assert.equal(state.cancelled, true);
    const classified = classifyError(error, CTX);
    assert.equal(classified.kind, "server");
    assert.match(classified.message, /reported an error: model overloaded/);
  }
});

Deno.test("`ChatChunks` hands out the chunks before an error of the same read, then throws it", async () => {
  const { response: r } = response([
    `data: ${chunk("Hello ")}\n\nevent: error\ndata: {"message":"overloaded"}\n\n`,
  ], false);
  const chunks = new ChatChunks(r);
  const first = await chunks.next();
  assert.deepEqual(first?.map((c) => c.choices[0].delta.content), ["Hello "]);
  const error = await chunks.next().then(() => null, (e) => e);
  assert.match(classifyError(error, CTX).message, /overloaded/);
  assert.equal(await chunks.next(), null);
  chunks.close();
});

Deno.test("`ChatChunks` names the data that is not JSON", async () => {
  const { response: r } = response([`data: {"choices": [\n\n`]);
  const error = await new ChatChunks(r).next().then(() => null, (e) => e);
  assert.ok(error instanceof SyntaxError);
  assert.equal(error.message, 'The server sent an event that is not JSON: "{\\"choices\\": ["');
  const long = response([`data: ${"x".repeat(500)}\n\n`]).response;
  const longError = await new ChatChunks(long).next().then(() => null, (e) => e);
  assert.ok(longError.message.length < 140, longError.message);
});
