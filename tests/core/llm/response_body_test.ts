import assert from "node:assert/strict";
import { BodyTooLargeError, readBodyText } from "../../../core/llm/response_body.ts";
import { askModels, fetchServerModels } from "../../../core/llm/server_models.ts";

/** A server whose every answer is `status` with a body that never ends (64 KB at a time). */
function endlessServer(status = 200) {
  const piece = new TextEncoder().encode('{"data":[' + '{"id":"m"},'.repeat(6000));
  let cancelled = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(piece);
      },
      cancel() {
        cancelled++;
      },
    });
    return new Response(body, { status, headers: { "content-type": "application/json" } });
  });
  return { server, url: `http://127.0.0.1:${server.addr.port}/v1`, cancelled: () => cancelled };
}

Deno.test("readBodyText() reads a body whole, and stops with an error past its limit", async () => {
  assert.equal(await readBodyText(new Response("héllo"), 100), "héllo");
  assert.equal(await readBodyText(new Response(null), 100), "");
  let pulls = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(c) {
      pulls++;
      c.enqueue(new Uint8Array(1000));
    },
  });
  await assert.rejects(readBodyText(new Response(endless), 10_000), BodyTooLargeError);
  assert.ok(pulls <= 12, `read ${pulls} pieces for a 10,000-byte limit`);
});

Deno.test("a model list that never ends is cut off with a clear message (no hang, no memory growth)", async () => {
  for (const status of [200, 500]) {
    const { server, url, cancelled } = endlessServer(status);
    try {
      const started = performance.now();
      const r = await fetchServerModels({ baseURL: url, apiKey: "", timeoutMs: 60_000 });
      assert.deepEqual(r, {
        ok: false,
        message: status === 200
          ? `Cannot list models at "${url}/models": the answer is larger than 16 MB`
          : `Cannot list models at "${url}/models" (500)`,
      });
      const a = await askModels({ baseURL: url, apiKey: "", timeoutMs: 60_000 });
      assert.deepEqual(a, { ok: false, status, error: "the answer is larger than 16 MB" });
      assert.ok(performance.now() - started < 30_000, "cut off well before the time limit");
      assert.ok(cancelled() >= 1, "the server saw the read stop");
    } finally {
      await server.shutdown();
    }
  }
});
