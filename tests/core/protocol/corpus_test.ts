/**
 * The reply corpus of issue #3, checked whole and cut into chunks in many
 * ways, plus generated cases: every truncation of a sample call and a 200 KB
 * content.
 */
import assert from "node:assert/strict";
import { parseReply } from "../../../core/protocol/xml.ts";
import {
  cutAt,
  isInputMinusCall,
  perChar,
  randomChunks,
  type Shape,
  shape,
  stream,
  trickyCuts,
  visibleOf,
} from "./fuzz.ts";
import { SPECS } from "./specs.ts";

interface Case {
  id: string;
  input: string;
  expected: Shape;
  prose?: string;
}

const CORPUS = new URL("../../fixtures/protocol/corpus.jsonl", import.meta.url);

async function loadCorpus(): Promise<Case[]> {
  const text = await Deno.readTextFile(CORPUS);
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Case);
}

/** Every chunking a case is checked with. */
function chunkings(input: string): [string, string[]][] {
  const ways: [string, string[]][] = [
    ["one chunk", [input]],
    ["one char per chunk", perChar(input)],
    ["tricky cuts", trickyCuts(input)],
  ];
  for (let seed = 1; seed <= 4; seed++) ways.push([`random ${seed}`, randomChunks(input, seed)]);
  for (let c = 1; c < input.length; c++) ways.push([`split at ${c}`, cutAt(input, [c])]);
  return ways;
}

Deno.test("corpus holds at least 80 replies covering every error kind", async () => {
  const cases = await loadCorpus();
  assert.ok(cases.length >= 80, `only ${cases.length} cases`);
  const kinds = new Set(cases.map((c) => "error" in c.expected ? c.expected.error : "call"));
  for (const k of ["call", "unknown_tool", "unclosed", "multiple_tool_calls", "missing_param"]) {
    assert.ok(kinds.has(k), `no case for ${k}`);
  }
});

Deno.test("`parseReply()` gives the expected result for every corpus reply", async () => {
  for (const c of await loadCorpus()) {
    assert.deepEqual(shape(parseReply(c.input, SPECS)), c.expected, c.id);
  }
});

Deno.test("`CallScanner` gives the same result and prose for every chunking of each corpus reply", async () => {
  for (const c of await loadCorpus()) {
    const whole = stream([c.input], SPECS);
    assert.deepEqual(shape(whole.result), c.expected, c.id);
    for (const [how, chunks] of chunkings(c.input)) {
      const got = stream(chunks, SPECS);
      assert.deepEqual(got.result, whole.result, `${c.id}: ${how}`);
      assert.equal(got.prose, whole.prose, `${c.id}: prose, ${how}`);
    }
  }
});

Deno.test("`CallScanner` prose is the reply without the call", async () => {
  for (const c of await loadCorpus()) {
    const { prose, result } = stream(randomChunks(c.input, 7), SPECS);
    if (c.prose !== undefined) assert.equal(prose, c.prose, c.id);
    if (result.kind === "none") assert.equal(prose, visibleOf(c.input), c.id);
    if (result.kind === "call") assert.ok(isInputMinusCall(c.input, prose), `${c.id}: ${prose}`);
  }
});

const SAMPLE_CALL = [
  "<tool_call>",
  "<write_to_file>",
  "<path>src/page.html</path>",
  "<content>",
  '<p class="a">1 < 2 &amp; "</p>"</p>',
  "\tif (a<b) x = '</path>';",
  "</content>",
  "</write_to_file>",
  "</tool_call>",
].join("\r\n");
const SAMPLE = `I'll write the page.\n${SAMPLE_CALL}\nDone.`;

Deno.test("`parseReply()` gives unclosed, no call or the full call for every truncation of a call", () => {
  const full = parseReply(SAMPLE, SPECS);
  assert.equal(full.kind, "call");
  const opener = SAMPLE.indexOf("<tool_call>") + "<tool_call>".length;
  const seen = new Set<string>();
  for (let n = 0; n <= SAMPLE.length; n++) {
    const r = parseReply(SAMPLE.slice(0, n), SPECS);
    if (n < opener) assert.deepEqual(r, { kind: "none" }, `prefix ${n}`);
    else if (r.kind === "error") assert.equal(r.error, "unclosed", `prefix ${n}`);
    else assert.deepEqual(r, full, `prefix ${n}`);
    seen.add(r.kind === "error" ? r.error : r.kind);
  }
  assert.deepEqual([...seen].sort(), ["call", "none", "unclosed"]);
});

Deno.test("`CallScanner` agrees with `parseReply()` on every truncation cut into chunks", () => {
  for (let n = 0; n <= SAMPLE.length; n += 3) {
    const prefix = SAMPLE.slice(0, n);
    const whole = parseReply(prefix, SPECS);
    assert.deepEqual(stream(perChar(prefix), SPECS).result, whole, `prefix ${n}`);
    assert.deepEqual(stream(randomChunks(prefix, n), SPECS).result, whole, `prefix ${n}`);
  }
});

/** About 200 KB of code-like text with markup, entities and non-ASCII text. */
function bigContent(): string {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < 200_000; i++) {
    lines.push(
      `  if (a${i} < b && c > d) s += "</content>${i}" + '<path>x</path>' & 1; // 日本語 🚀`,
      `  <div class="row-${i}"><span>&amp;${i}</span></div>\r`,
      "",
    );
  }
  return lines.join("\n");
}

Deno.test("`CallScanner` writes a 200 KB content whole for every chunking", () => {
  const content = bigContent();
  assert.ok(content.length >= 200_000);
  const reply =
    `Here:\n<tool_call>\n<write_to_file>\n<path>big.ts</path>\n<content>\n${content}\n` +
    `</content>\n</write_to_file>\n</tool_call>\n`;
  const expected = {
    kind: "call",
    call: { tool: "write_to_file", params: { path: "big.ts", content } },
  };
  assert.deepEqual(parseReply(reply, SPECS), expected);
  for (const chunks of [perChar(reply), randomChunks(reply, 3, 64), trickyCuts(reply)]) {
    const got = stream(chunks, SPECS);
    assert.deepEqual(got.result, expected);
    assert.equal(got.prose, "Here:\n\n");
  }
});
