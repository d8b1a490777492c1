/**
 * `countText()` on text with very long runs without white space (a minified
 * file, a model repeating one character): counted in slices, so the
 * tokenizer's quadratic merge cannot stall a turn for minutes.
 */
import assert from "node:assert/strict";
import { countText } from "../../../core/agent/tokens.ts";

Deno.test("countText() counts a 1,000,000-character run without white space as a close estimate", async () => {
  const n = await countText("x".repeat(1_000_000));
  assert.ok(n > 1_000_000 / 16 && n < 1_000_000 / 2, `${n}`);
});

Deno.test("countText() counts ordinary text exactly as the tokenizer does, long runs around it in slices", async () => {
  assert.equal(await countText("hello world"), 2);
  const run = "y".repeat(600);
  const mixed = await countText(`a b ${run} c d`);
  const parts = (await countText("a b ")) + (await countText(run.slice(0, 256))) +
    (await countText(run.slice(256, 512))) + (await countText(run.slice(512))) +
    (await countText(" c d"));
  assert.equal(mixed, parts);
});
