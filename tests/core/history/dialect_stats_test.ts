import assert from "node:assert/strict";
import { defaultMetadata } from "../../../core/history/format.ts";
import type { SessionFile, SessionMessage } from "../../../interfaces/history.ts";
import { computeDialects, formatDialects } from "../../../core/history/dialect_stats.ts";

function session(model: string, messages: Partial<SessionMessage>[]): SessionFile {
  return {
    sessionId: `s-${model}`,
    timestamp: "2026-11-25T00:00:00.000Z",
    model,
    systemPrompt: "",
    projectPath: "/p",
    mode: "agent",
    messages: messages.map((m) => ({ role: "assistant", content: "", timestamp: "t", ...m })),
    metadata: defaultMetadata(),
  } as SessionFile;
}

Deno.test("`computeDialects()` counts dialects and the parse-error rate per model", () => {
  const stats = computeDialects([
    session("qwen3", [
      { dialect: "hermes_json" },
      { dialect: "hermes_json" },
      { dialect: "canonical" },
      { role: "system", event: "unknown_tool" },
      { dialect: "hermes_json" },
      { role: "user" },
      {},
    ]),
    session("qwen3", [{ dialect: "canonical" }]),
    session("llama", [{ role: "system", event: "notice" }, {}]),
  ]);
  assert.deepEqual(stats, [
    { model: "llama", replies: 1, dialects: {}, parseErrors: 0, parseErrorRate: 0 },
    {
      model: "qwen3",
      replies: 6,
      dialects: { hermes_json: 3, canonical: 2 },
      parseErrors: 1,
      parseErrorRate: 1 / 6,
    },
  ]);
  const text = formatDialects(stats);
  assert.match(text, /^Dialects\n/);
  assert.match(text, /qwen3.*16\.7%.*hermes_json 3, canonical 2/);
});

Deno.test("`renderTranscript()` notes a reply's dialect and the length of its reasoning", async () => {
  const { renderTranscript } = await import("../../../core/history/transcript.ts");
  const text = renderTranscript(session("qwen3", [
    { content: "Reading.", dialect: "hermes_json", reasoning: "Plan it." },
    { content: "Done.", dialect: "canonical" },
  ]));
  assert.match(text, /assistant \(dialect hermes_json, reasoning 8 chars\)\n\s*Reading\./);
  assert.match(text, /assistant\n\s*Done\./);
});
