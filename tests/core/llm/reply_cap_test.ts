/** `capReplies()`: a reply past the cap is cut, ends with the notice, and its stream is stopped. */
import assert from "node:assert/strict";
import type { ChatRequest, LlmProvider, StreamEvent } from "../../../interfaces/agent.ts";
import { capReplies, cutNotice } from "../../../core/llm/reply_cap.ts";

/** A provider that would stream 1,000 chunks of 10 characters, and notes whether it was stopped. */
function endless(
  seen: { signal?: AbortSignal; chunks: number },
  type: "text" | "reasoning" = "text",
): LlmProvider {
  return {
    name: "endless",
    model: "m",
    endpoint: "memory",
    async *stream(request: ChatRequest): AsyncGenerator<StreamEvent> {
      seen.signal = request.signal;
      for (let i = 0; i < 1000 && !request.signal?.aborted; i++) {
        seen.chunks++;
        yield { type, text: "0123456789" };
      }
      yield { type: "end", reason: "stop" };
    },
  };
}

async function collect(provider: LlmProvider): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const ev of provider.stream({ messages: [] })) out.push(ev);
  return out;
}

Deno.test("capReplies() cuts a reply at the cap, adds the notice, ends with length and stops the stream", async () => {
  const seen = { chunks: 0 } as { signal?: AbortSignal; chunks: number };
  const events = await collect(capReplies(endless(seen), 25));
  const text = events.filter((e) => e.type === "text").map((e) => e.text).join("");
  assert.equal(text, "0123456789".repeat(3).slice(0, 25) + cutNotice(25));
  assert.deepEqual(events.at(-1), { type: "end", reason: "length" });
  assert.equal(seen.signal?.aborted, true);
  assert.ok(seen.chunks <= 4, `read ${seen.chunks} chunks`);
});

Deno.test("capReplies() passes a reply under the cap through unchanged", async () => {
  const events = await collect(capReplies(endless({ chunks: 0 }), 1_000_000));
  assert.equal(events.filter((e) => e.type === "text").length, 1000);
  assert.deepEqual(events.at(-1), { type: "end", reason: "stop" });
});

Deno.test("capReplies() counts reasoning sent apart: endless reasoning is cut and stopped too", async () => {
  const seen = { chunks: 0 } as { signal?: AbortSignal; chunks: number };
  const events = await collect(capReplies(endless(seen, "reasoning"), 25));
  const thought = events.filter((e) => e.type === "reasoning").map((e) => e.text).join("");
  assert.equal(thought, "0123456789".repeat(3).slice(0, 25));
  assert.deepEqual(events.filter((e) => e.type === "text").map((e) => e.text), [cutNotice(25)]);
  assert.deepEqual(events.at(-1), { type: "end", reason: "length" });
  assert.equal(seen.signal?.aborted, true);
  assert.ok(seen.chunks <= 4, `read ${seen.chunks} chunks`);
});
