/**
 * End-to-end: a server that sends bytes without end, but never a whole
 * event (one line without a line end, or lines without the blank line that
 * ends an event), or an answer that is not a stream and never ends, is cut
 * off at a bound: minoc exits with the reason instead of filling memory
 * until the idle timeout (3.5 GB in 20 s before).
 */
import assert from "node:assert/strict";
import { projectWithSettings, runMinoc } from "../../support/cli.ts";

const OPENING = 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m",' +
  '"choices":[{"index":0,"delta":{"content":"';

/** What each flooding server sends after its first bytes, as fast as the client reads. */
const FLOODS: Record<string, { type: string; status: number; first: string; piece: string }> = {
  "one line without end": {
    type: "text/event-stream",
    status: 200,
    first: OPENING,
    piece: "a".repeat(65_536),
  },
  "lines, never a blank one": {
    type: "text/event-stream",
    status: 200,
    first: "",
    piece: `data: ${"b".repeat(1_000)}\n`.repeat(64),
  },
  "an endless error": {
    type: "application/json",
    status: 400,
    first: "{",
    piece: " ".repeat(65_536),
  },
};

function floodingServer(o: { type: string; status: number; first: string; piece: string }) {
  const first = new TextEncoder().encode(o.first);
  const piece = new TextEncoder().encode(o.piece);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (!new URL(req.url).pathname.endsWith("/chat/completions")) {
      return new Response("{}", { status: 404 });
    }
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(first);
      },
      pull(c) {
        c.enqueue(piece);
      },
    });
    return new Response(body, { status: o.status, headers: { "content-type": o.type } });
  });
  return { url: `http://127.0.0.1:${server.addr.port}/v1`, server };
}

Deno.test("run: a server flooding one event, or an answer, is cut off at a bound and the run ends", async () => {
  for (const [name, flood] of Object.entries(FLOODS)) {
    const dir = await projectWithSettings("minoc_flood_", { retry: { maxRetries: 0 } });
    const { url, server } = floodingServer(flood);
    try {
      const r = await runMinoc(["run", "hi", "--base-url", url, "--model", "m"], {
        cwd: dir,
        timeoutMs: 30_000,
      });
      assert.equal(r.code, 1, `${name}: ${r.stderr}`);
      assert.match(r.stdout + r.stderr, /larger than 8 MB; the answer was not read further/, name);
    } finally {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  }
});
