/**
 * End-to-end: a server that keeps a reply open with bytes that carry no
 * output — empty deltas, a role alone, empty or null content, chunks without
 * a choice, usage again and again, SSE comments — is as stalled as a silent
 * one: minoc gives up after `idleTimeoutMs` and exits instead of waiting for
 * ever. A server streaming reasoning without end is cut at the reply cap.
 */
import assert from "node:assert/strict";
import { projectWithSettings, runMinoc } from "../../support/cli.ts";

const chunk = (body: Record<string, unknown>) =>
  `data: ${
    JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", ...body })
  }\n\n`;
const delta = (d: Record<string, unknown>) =>
  chunk({ choices: [{ index: 0, delta: d, finish_reason: null }] });

const finish = (reason: string) =>
  chunk({ choices: [{ index: 0, delta: {}, finish_reason: reason }] });

/** What each hostile server repeats every 50 ms, for ever (in turn when there are several). */
const KEEP_ALIVES: Record<string, string | string[]> = {
  "empty delta": delta({}),
  "role alone": delta({ role: "assistant" }),
  "empty content": delta({ content: "" }),
  "null content": delta({ content: null }),
  "no choice": chunk({ choices: [] }),
  "usage again": chunk({
    choices: [],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  }),
  "SSE comment": ": ping\n\n",
  "finish again": finish("stop"),
  "finish, then another": [finish("stop"), finish("length"), finish("tool_calls")],
};

/** A server streaming `first`, then `repeat` every `everyMs` until the client goes away. */
function hostileServer(first: string, repeat: string | string[], everyMs: number) {
  const pieces = typeof repeat === "string" ? [repeat] : repeat;
  const encoder = new TextEncoder();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (!new URL(req.url).pathname.endsWith("/chat/completions")) {
      return new Response("{}", { status: 404 });
    }
    let timer: ReturnType<typeof setInterval> | undefined;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(first));
        timer = setInterval(() => {
          try {
            controller.enqueue(encoder.encode(pieces[sent++ % pieces.length]));
          } catch {
            clearInterval(timer);
          }
        }, everyMs);
      },
      cancel() {
        clearInterval(timer);
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  return { url: `http://127.0.0.1:${server.addr.port}/v1`, server };
}

/** A project whose settings give up a reply after 1 s of silence. */
function project(): Promise<string> {
  return projectWithSettings("minoc_keepalive_", {
    idleTimeoutMs: 1000,
    retry: { maxRetries: 1, baseDelayMs: 10 },
  });
}

Deno.test("run: bytes without output keep no reply alive: each keep-alive is timed out after idleTimeoutMs", async () => {
  const results = await Promise.all(
    Object.entries(KEEP_ALIVES).map(async ([name, repeat]) => {
      const dir = await project();
      const { url, server } = hostileServer(delta({ role: "assistant", content: "" }), repeat, 50);
      try {
        const started = performance.now();
        const r = await runMinoc(["run", "hi", "--base-url", url, "--model", "m"], {
          cwd: dir,
          timeoutMs: 20_000,
        });
        return { name, r, ms: performance.now() - started };
      } finally {
        await server.shutdown();
        await Deno.remove(dir, { recursive: true });
      }
    }),
  );
  for (const { name, r, ms } of results) {
    assert.equal(r.code, 1, `${name}: ${r.stderr}`);
    assert.match(r.stdout + r.stderr, /No data from .* for 1000 ms/, `${name}: ${r.stderr}`);
    assert.ok(ms < 20_000, `${name}: took ${Math.round(ms)} ms`);
  }
});

Deno.test("run: reasoning streamed without end is cut at the reply cap, and the run ends", async () => {
  const dir = await project();
  const thought = delta({ reasoning_content: "x".repeat(50_000), content: null });
  const { url, server } = hostileServer(delta({ role: "assistant", content: "" }), thought, 5);
  try {
    const r = await runMinoc(["run", "hi", "--base-url", url, "--model", "m"], {
      cwd: dir,
      timeoutMs: 20_000,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout + r.stderr, /this reply was cut at 1000000 characters/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
