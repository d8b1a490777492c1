import assert from "node:assert/strict";
import { tokensLine } from "../../../cli/ui/tokens_line.ts";

Deno.test("`tokensLine()` shows tokens in and out and the share of the context window", () => {
  const usage = { promptTokens: 1200, completionTokens: 80, totalTokens: 1280 };
  assert.equal(
    tokensLine(usage, { used: 1280, window: 128_000 }),
    "tokens 1,200 in / 80 out · context 1,280 / 128,000 (1%)",
  );
  assert.equal(tokensLine(usage), "tokens 1,200 in / 80 out");
});

Deno.test("`tokensLine()` marks counts made locally with ~", () => {
  const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15, estimated: true };
  assert.equal(
    tokensLine(usage, { used: 15, window: 1000 }),
    "tokens ~10 in / ~5 out · context ~15 / 1,000 (2%)",
  );
});
