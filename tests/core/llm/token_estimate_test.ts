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

/** The estimate as first written, with one regular expression: the pass over codes must agree. */
function byRegex(text: string): number {
  let n = 0;
  for (
    const m of text.matchAll(/[A-Za-z]+|\d+|[^\sA-Za-z\d\u0080-\uffff]+|[\u0080-\uffff]+|\s+/g)
  ) {
    const run = m[0];
    const c = run.charCodeAt(0);
    if (c === 32 || c === 10 || c === 9 || c === 13) {
      if (run.length > 1) n += Math.ceil(run.length / 8);
    } else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) n += Math.ceil(run.length / 7);
    else if (c > 127) n += run.length;
    else n += Math.ceil(run.length / 3);
  }
  return n;
}

Deno.test("estimateTokens() counts as the regular expression of runs does, on random text", () => {
  // Every kind of run, and the white space that is not ASCII at a run's start and inside one.
  const alphabet = [..."aZq09 \t\n\r\v\f.;{}_-~é€😀\u00a0\u2028\u3000\ufeff\u1680\u2005"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let k = 0; k < 3000; k++) {
    let text = "";
    const len = Math.floor(next() * 40);
    for (let i = 0; i < len; i++) text += alphabet[Math.floor(next() * alphabet.length)];
    assert.equal(estimateTokens(text), byRegex(text), JSON.stringify(text));
  }
});
