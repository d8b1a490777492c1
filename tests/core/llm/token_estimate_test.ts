import assert from "node:assert/strict";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/cl100k_base";
import { estimateTokens } from "../../../core/llm/token_estimate.ts";
import { ROOT } from "../../support/cli.ts";

const EXACT = { disallowedSpecial: new Set<string>() };

Deno.test("estimateTokens() prices words, numbers, symbols and white space", () => {
  assert.equal(estimateTokens(""), 0);
  assert.equal(estimateTokens("hello world"), 2);
  assert.equal(estimateTokens("1234567"), 3);
  assert.equal(estimateTokens("a => b;"), 4);
  assert.equal(estimateTokens("日本語"), 3);
});

Deno.test("estimateTokens() stays near cl100k_base on this repository's code and prose", async () => {
  const files = [
    "README.md",
    "ARCHITECTURE.md",
    "core/agent/loop.ts",
    "core/protocol/xml.ts",
    "core/tools/text_match.ts",
    "core/permission/security/rules/dev.ts",
    "cli/commands/chat.ts",
  ];
  let exact = 0;
  let estimate = 0;
  for (const f of files) {
    const text = await Deno.readTextFile(join(ROOT, f));
    const e = estimateTokens(text);
    const x = countTokens(text, EXACT);
    assert.ok(e >= x * 0.9 && e <= x * 1.3, `${f}: estimate ${e}, cl100k ${x}`);
    exact += x;
    estimate += e;
  }
  assert.ok(estimate >= exact && estimate <= exact * 1.2, `${estimate} vs ${exact}`);
});
