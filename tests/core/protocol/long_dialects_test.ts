/**
 * Long values in the dialects whose parameters are tags (Qwen3-Coder's
 * `<parameter=…>`, GLM-4.5's `<arg_key>`/`<arg_value>`, Anthropic-style
 * `<parameter name=…>`): the end of a streamed reply finds those tags through
 * the places the stream noted (`noted_spans.ts`), so every chunking must give
 * what the whole reply gives, also when a value holds such tags itself.
 */
import assert from "node:assert/strict";
import { parseReply } from "../../../core/protocol/xml.ts";
import { fixedChunks, perChar, randomChunks, rng, stream } from "./fuzz.ts";
import { SPECS } from "./specs.ts";

/** Pieces of file text: HTML and JSX with `<p>` and `<a>`, comparisons, the dialects' own tags. */
const PIECES = [
  "<p>para</p>",
  '<a href="x">link</a>',
  "</parameter>",
  "<parameter=content>",
  '<parameter name="path">',
  "<arg_key>k</arg_key>",
  "<arg_value>",
  "</arg_value>",
  "a < b",
  "x <= y",
  "<",
  "</",
  "<li>",
  "日本語",
  "\n",
  "\r\n",
  "plain text that runs on for a while ",
];

function fileText(next: () => number, size: number): string {
  let out = "";
  while (out.length < size) out += PIECES[Math.floor(next() * PIECES.length)];
  return out;
}

const REPLIES: Record<string, (path: string, content: string) => string> = {
  qwen3_coder: (p, c) =>
    `Now.\n<tool_call>\n<function=write_to_file>\n<parameter=path>\n${p}\n</parameter>\n` +
    `<parameter=content>\n${c}\n</parameter>\n</function>\n</tool_call>\n`,
  glm4: (p, c) =>
    `<tool_call>write_to_file\n<arg_key>content</arg_key>\n<arg_value>${c}</arg_value>\n` +
    `<arg_key>path</arg_key>\n<arg_value>${p}</arg_value>\n</tool_call>`,
  anthropic_xml: (p, c) =>
    `<function_calls>\n<invoke name="write_to_file">\n<parameter name="content">${c}</parameter>\n` +
    `<parameter name="path">${p}</parameter>\n</invoke>\n</function_calls>`,
};

function chunkings(text: string, seed: number): [string, string[]][] {
  const fixed = (size: number) => fixedChunks(text, size);
  return [
    ["1 char", perChar(text)],
    ["5 chars", fixed(5)],
    ["16 chars", fixed(16)],
    ["random 1..12", randomChunks(text, seed)],
    ["random 1..3000", randomChunks(text, seed + 1, 3000)],
  ];
}

Deno.test("long values with tags of their own parse the same whole and in every chunking", () => {
  const next = rng(20261129);
  for (const [dialect, build] of Object.entries(REPLIES)) {
    for (let k = 0; k < 12; k++) {
      const text = build("src/a.tsx", fileText(next, 2000 + Math.floor(next() * 6000)));
      const whole = stream([text], SPECS);
      for (const [name, chunks] of chunkings(text, k)) {
        const got = stream(chunks, SPECS);
        assert.deepEqual(got.result, whole.result, `${dialect} #${k} ${name}`);
        assert.equal(got.prose, whole.prose, `${dialect} #${k} ${name}`);
      }
    }
  }
});

Deno.test("a long value without its dialect's tags is the whole value in every chunking", () => {
  const content = '<p>One</p>\n<a href="b">two</a> a < b </p'.repeat(300);
  for (const [dialect, build] of Object.entries(REPLIES)) {
    const text = build("src/a.html", content);
    const want = parseReply(text, SPECS);
    assert.equal(want.kind, "call", dialect);
    if (want.kind !== "call") continue;
    assert.equal(want.call.params.content, content, dialect);
    assert.equal(want.call.params.path, "src/a.html", dialect);
    for (const [name, chunks] of chunkings(text, 3)) {
      assert.deepEqual(stream(chunks, SPECS).result, want, `${dialect} ${name}`);
    }
  }
});
