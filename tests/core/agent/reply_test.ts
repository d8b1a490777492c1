/** `streamReply()`: when the agent's chores run around a request that has gone out. */
import assert from "node:assert/strict";
import type { ChatRequest, LlmProvider, StreamEvent } from "../../../interfaces/agent.ts";
import { streamReply } from "../../../core/agent/reply.ts";

/**
 * A provider that says its request is out, notes how often `requested` ran
 * by the time it is read again (still within the same turn of the event
 * loop) and once a timer has fired, then answers.
 */
function noting(seen: { calls: () => number; atNextRead?: number; afterTimer?: number }) {
  const provider: LlmProvider = {
    name: "noting",
    model: "m",
    endpoint: "memory",
    async *stream(_request: ChatRequest): AsyncGenerator<StreamEvent> {
      yield { type: "open" };
      seen.atNextRead = seen.calls();
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.afterTimer = seen.calls();
      yield { type: "text", text: "All done." };
      yield { type: "end", reason: "stop" };
    },
  };
  return provider;
}

Deno.test("streamReply() runs the requested() chores on a later turn of the event loop than the request's start, once", async () => {
  let calls = 0;
  const seen: { calls: () => number; atNextRead?: number; afterTimer?: number } = {
    calls: () => calls,
  };
  const reply = await streamReply(
    { provider: noting(seen), tools: [], emit: () => {}, requested: () => void calls++ },
    [{ role: "user", content: "hi" }],
    new AbortController().signal,
  );
  assert.equal(reply.visible, "All done.");
  // Run at once, the chores would come before the runtime could write the request.
  assert.equal(seen.atNextRead, 0);
  assert.equal(seen.afterTimer, 1);
  assert.equal(calls, 1);
});
