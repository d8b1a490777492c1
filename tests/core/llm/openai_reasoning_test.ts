import assert from "node:assert/strict";
import type { StreamEvent } from "../../../interfaces/agent.ts";
import { createOpenAIProvider } from "../../../core/llm/openai.ts";
import { startServer } from "../../support/server.ts";

async function events(field: "reasoning_content" | "reasoning"): Promise<StreamEvent[]> {
  await using server = await startServer({
    replies: [{ reasoning: { field, chunks: ["Plan: ", "answer."] }, chunks: ["Hel", "lo"] }],
  });
  const p = createOpenAIProvider({
    baseURL: server.baseUrl,
    apiKey: "",
    params: { model: "m" },
  });
  const out: StreamEvent[] = [];
  for await (const ev of p.stream({ messages: [{ role: "user", content: "hi" }] })) out.push(ev);
  return out;
}

for (const field of ["reasoning_content", "reasoning"] as const) {
  Deno.test(`\`stream()\` reports the \`${field}\` delta field as reasoning events before the text`, async () => {
    const got = (await events(field)).filter((e) => e.type === "reasoning" || e.type === "text");
    assert.deepEqual(got, [
      { type: "reasoning", text: "Plan: " },
      { type: "reasoning", text: "answer." },
      { type: "text", text: "Hel" },
      { type: "text", text: "lo" },
    ]);
  });
}
