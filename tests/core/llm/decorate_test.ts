import assert from "node:assert/strict";
import type { LlmProvider, StreamEvent } from "../../../interfaces/agent.ts";
import { decorateProvider } from "../../../core/llm/decorate.ts";
import { withRetry } from "../../../core/llm/retry.ts";

function fake(waitsForUser?: boolean): LlmProvider {
  return {
    name: "fake",
    model: "m1",
    endpoint: "http://x/v1",
    waitsForUser,
    async *stream(): AsyncIterable<StreamEvent> {
      yield { type: "text", text: "inner" };
      yield { type: "end", reason: "stop" };
    },
  };
}

Deno.test("`decorateProvider()` forwards every field but stream, waitsForUser included", async () => {
  const inner = fake(true);
  const outer = decorateProvider(inner, async function* () {
    yield { type: "text", text: "outer" };
  });
  assert.deepEqual([outer.name, outer.model, outer.endpoint, outer.waitsForUser], [
    "fake",
    "m1",
    "http://x/v1",
    true,
  ]);
  const events = await Array.fromAsync(outer.stream({ messages: [] }));
  assert.deepEqual(events, [{ type: "text", text: "outer" }]);
});

Deno.test("`withRetry()` keeps the bridge's waitsForUser flag, so no spinner draws over a paste", () => {
  const policy = { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 };
  assert.equal(withRetry(fake(true), policy).waitsForUser, true);
  assert.equal(withRetry(fake(), policy).waitsForUser, undefined);
});
