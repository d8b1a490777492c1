import assert from "node:assert/strict";
import { Tag, TagReader } from "../../../core/protocol/tags.ts";

/** Reads a tag that starts at text[0] === "<", fed in the given chunk sizes. */
function readTag(text: string, size: number, max = 20) {
  const tag = new TagReader(max);
  tag.begin(0);
  let chunkStart = 0;
  let i = 1;
  while (chunkStart < text.length) {
    const chunk = text.slice(chunkStart, chunkStart + size);
    const at = tag.read(chunk, Math.max(0, i - chunkStart));
    if (tag.result !== Tag.More) return { result: tag.result, at: chunkStart + at, tag };
    chunkStart += size;
    i = chunkStart;
  }
  return { result: tag.result, at: text.length, tag };
}

Deno.test("`TagReader.read()` reads opening and closing tags split anywhere", () => {
  for (const size of [1, 2, 3, 100]) {
    const open = readTag("<write_to_file>rest", size);
    assert.equal(open.result, Tag.Done);
    assert.equal(open.tag.name, "write_to_file");
    assert.equal(open.tag.close, false);
    assert.equal(open.at, 15);
    const close = readTag("</a.b:c-d_1>", size);
    assert.deepEqual([close.result, close.tag.name, close.tag.close], [
      Tag.Done,
      "a.b:c-d_1",
      true,
    ]);
  }
});

Deno.test("`TagReader.read()` aborts on what is not a tag, leaving that character unread", () => {
  const cases: [string, number][] = [
    ["< a>", 1],
    ["<1>", 1],
    ["<a b>", 2],
    ["<<a>", 1],
    ["</>", 2],
    [
      "<a\n>",
      2,
    ],
  ];
  for (const [text, at] of cases) {
    for (const size of [1, 100]) {
      const r = readTag(text, size);
      assert.equal(r.result, Tag.Abort, text);
      assert.equal(r.at, at, text);
    }
  }
  assert.equal(readTag("<averyveryverylongname>", 100, 8).result, Tag.Abort);
  assert.equal(readTag("<write_to_fi", 3).result, Tag.More);
});
