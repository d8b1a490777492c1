import assert from "node:assert/strict";
import { ClearSpans } from "../../../core/protocol/clear_spans.ts";
import { TextFind } from "../../../core/protocol/text_find.ts";
import { parseReply } from "../../../core/protocol/xml.ts";
import { rng } from "./fuzz.ts";
import { SPECS } from "./specs.ts";

const TEXT = "a <tool_call> b </tool_call> <function_calls> <invoke x> </tool_call> c";
const NEEDLES = ["</tool_call>", "<invoke", "</function_calls>", "</invoke>", "c", "<tool_call>"];

Deno.test("`TextFind.indexOf()` answers as `indexOf` for every order of searches", () => {
  const random = rng(7);
  for (let round = 0; round < 200; round++) {
    const find = new TextFind(TEXT, new ClearSpans());
    for (let k = 0; k < 20; k++) {
      const needle = NEEDLES[Math.floor(random() * NEEDLES.length)];
      const from = Math.floor(random() * (TEXT.length + 2));
      assert.equal(find.indexOf(needle, from), TEXT.indexOf(needle, from), `${needle} @${from}`);
    }
  }
});

Deno.test("`TextFind` reads the text once for a closer that many openers look for", () => {
  const text = "<tool_call> oops\n".repeat(1000);
  const find = new TextFind(text, new ClearSpans());
  for (let at = 0; at >= 0; at = text.indexOf("<tool_call>", at + 1)) {
    assert.equal(find.indexOf("</tool_call>", at + 11), -1);
  }
  assert.equal(find.reads, 1);
  // A match ahead answers every search up to it; a search before the first one reads again.
  const closed = new TextFind("<a> <a> <a> </a>", new ClearSpans());
  assert.deepEqual([0, 4, 8].map((at) => closed.indexOf("</a>", at)), [12, 12, 12]);
  assert.equal(closed.reads, 1);
  closed.indexOf("</a>", 13);
  assert.equal(closed.reads, 2);
});

Deno.test("`TextFind` skips the clear spans for tags named `t…` or `r…` only", () => {
  // A span that wrongly holds a tag hides it: proof that the span is skipped.
  const text = "x </tool_call> </function>";
  const clear = new ClearSpans(1);
  clear.add(0, text.length);
  const find = new TextFind(text, clear);
  assert.equal(find.indexOf("</tool_call>", 0), -1);
  assert.equal(find.indexOf("</function>", 0), text.indexOf("</function>"));
});

Deno.test("GLM-4.5 calls: the name line decides before the rest is read", () => {
  const kinds = (reply: string) => {
    const r = parseReply(reply, SPECS);
    return r.kind === "call" ? `${r.dialect}:${r.call.tool}` : `${r.kind}`;
  };
  const value = "<arg_key>path</arg_key><arg_value>a</arg_value></tool_call>";
  assert.equal(kinds(`<tool_call>read_file   ${value}`), "glm4:read_file");
  assert.equal(kinds(`<tool_call>\n read_file \n${value}`), "glm4:read_file");
  assert.equal(kinds(`<tool_call>read file${value}`), "error");
  assert.equal(kinds(`<tool_call>read_file\nthen prose ${value}`), "error");
  // Many openers, no closer, nothing that names a tool: an error, found in linear work.
  const junk = "<tool_call> oops\n<function_calls>\n<invoke\n".repeat(20_000);
  assert.equal(kinds(junk), "error");
});
