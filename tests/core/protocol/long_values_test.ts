/**
 * Values far longer than the scanner's internal blocks: cut out of many
 * blocks (and left for V8 to join), they must still equal the text exactly.
 */
import assert from "node:assert/strict";
import { parseReply } from "../../../core/protocol/xml.ts";
import { fixedChunks, perChar, randomChunks, stream } from "./fuzz.ts";
import { SPECS } from "./specs.ts";

/** About `size` characters of file text: markup, CRLF, `</content>`, Japanese, emoji, a lone surrogate. */
function fileText(size: number): string {
  const lines: string[] = [];
  for (let n = 0, i = 0; n < size; i++) {
    const line = i % 4 === 0
      ? `<li id="${i}">{a < b && "</content>"} &amp; 日本語</li>\r`
      : `const v${i} = f(x) <= ${i}; // 🚀 \uD800 ok`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join("\n");
}

function reply(content: string): string {
  return "Writing.\n<tool_call>\n<write_to_file>\n<path>big.tsx</path>\n<content>\r\n" + content +
    "\n</content>\n</write_to_file>\n</tool_call>\nDone.";
}

/** Chunkings from one character to more than a block at a time. */
function chunkings(text: string): [string, string[]][] {
  const fixed = (size: number) => fixedChunks(text, size);
  return [
    ["1 char", perChar(text)],
    ["3 chars", fixed(3)],
    ["16 chars", fixed(16)],
    ["1000 chars", fixed(1000)],
    ["5000 chars", fixed(5000)],
    ["random 1..12", randomChunks(text, 7)],
    ["random 1..9000", randomChunks(text, 8, 9000)],
  ];
}

Deno.test("`CallScanner` gives a 300 KB content exactly, whatever the chunking", () => {
  const content = fileText(300_000);
  const text = reply(content);
  const want = {
    kind: "call",
    call: { tool: "write_to_file", params: { path: "big.tsx", content } },
  };
  assert.deepEqual(parseReply(text, SPECS), want);
  for (const [name, chunks] of chunkings(text)) {
    const got = stream(chunks, SPECS);
    assert.deepEqual(got.result, want, name);
    assert.equal(got.prose, "Writing.\n\nDone.", name);
  }
});

Deno.test("`CallScanner` strips edges and unwraps CDATA of a long value cut across blocks", () => {
  const inner = fileText(20_000);
  const cases: [string, string][] = [
    [`\r\n<![CDATA[${inner}]]>\r\n`, inner],
    [`<![CDATA[${inner}]]>x`, `<![CDATA[${inner}]]>x`],
    [`<![CDATA[${inner}]]>${inner}]]>`, `<![CDATA[${inner}]]>${inner}]]>`],
    [`\n\n${inner}\r\n\r\n`, `\n${inner}\r\n`],
  ];
  for (const [raw, want] of cases) {
    const text = `<tool_call><write_to_file><path>a</path><content>${raw}</content>` +
      "</write_to_file></tool_call>";
    for (const [name, chunks] of chunkings(text)) {
      const got = stream(chunks, SPECS).result;
      assert.equal(got.kind === "call" && got.call.params.content, want, name);
    }
  }
});
