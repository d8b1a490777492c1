import assert from "node:assert/strict";
import {
  blockCall,
  blockPaths,
  hasEditBlocks,
  joinParts,
  modeOf,
  parseBlocks,
  parseHunks,
  readDirectives,
  splitContinue,
} from "../../../core/protocol/bridge_format.ts";

Deno.test("`parseBlocks()` numbers blocks from 1 and reads NEW, DELETE and quoted paths", () => {
  const r = parseBlocks(
    "intro\n<<<FILE: [NEW] `a b.txt`>>>\nx\n<<<END>>>\n<<<DELETE: old.txt>>>\n" +
      "<<<diff: 'c.ts'>>>\n@@\n-a\n+b\n<<<end>>>\n",
  );
  assert.ok(r.ok);
  assert.deepEqual(
    r.blocks.map((b) => [b.kind, b.path, b.index, b.line]),
    [["new", "a b.txt", 1, 2], ["delete", "old.txt", 2, 5], ["diff", "c.ts", 3, 6]],
  );
  assert.equal(r.blocks[0].kind === "new" && r.blocks[0].body, "x\n");
});

Deno.test("`parseBlocks()` reports the unclosed block with its index and path", () => {
  const r = parseBlocks("<<<DELETE: x>>>\n<<<FILE: a.txt>>>\nbody\n");
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.deepEqual([r.error, r.block, r.path], ["unclosed", 2, "a.txt"]);
  assert.match(r.message, /^Block 2 \(FILE a\.txt\) is not closed: it has no <<<END>>> line$/);
});

Deno.test("`parseBlocks()` does not take a header with an empty path as a block", () => {
  const r = parseBlocks("<<<FILE:   >>>\n<<<END>>>\n");
  assert.deepEqual(r, { ok: true, blocks: [] });
  assert.equal(hasEditBlocks("<<<FILE: >>>"), false);
  assert.equal(hasEditBlocks("text\n  <<<DELETE: x>>>\r\n"), true);
});

Deno.test("`parseHunks()` reads hints, markers and lines without a prefix as context", () => {
  const hunks = parseHunks([
    "--- a/x",
    "+++ b/x",
    "@@ -7,2 +7,2 @@ fn",
    "a",
    "-b",
    "\\ No newline",
    "+c",
  ]);
  assert.equal(hunks.length, 1);
  assert.equal(hunks[0].hint, 7);
  assert.deepEqual(hunks[0].lines, [
    { op: " ", text: "a", noEol: false },
    { op: "-", text: "b", noEol: true },
    { op: "+", text: "c", noEol: false },
  ]);
});

Deno.test("`blockPaths()` lists each touched path once, in order", () => {
  assert.deepEqual(
    blockPaths("<<<DIFF: b>>>\n<<<END>>>\n<<<DELETE: a>>>\n<<<FILE: b>>>\n<<<END>>>"),
    ["b", "a"],
  );
});

Deno.test("`blockCall()` turns blocks into apply_edit_blocks and directives into bridge_request", () => {
  const blocks = "ok\n<<<DELETE: a.txt>>>\n";
  assert.deepEqual(blockCall(blocks, { directives: false }), {
    tool: "apply_edit_blocks",
    params: { blocks, path: ["a.txt"] },
  });
  const ask = "<<<REQUEST_FILE: src/a.ts>>>\n<<<SWITCH_MODE: edit>>>\n";
  assert.equal(blockCall(ask, { directives: false }), null);
  assert.deepEqual(blockCall(ask, { directives: true }), {
    tool: "bridge_request",
    params: { path: ["src/a.ts"], mode: "edit" },
  });
  assert.equal(blockCall("just an answer", { directives: true }), null);
});

Deno.test("`readDirectives()` reads single requests, lists with bullets, and the last mode switch", () => {
  const d = readDirectives(
    "<<<REQUEST_FILE: a.ts>>>\n<<<REQUEST_FILES>>>\n- `b.ts`\n2. c d.ts\n\na.ts\n<<<END>>>\n" +
      "<<<SWITCH_MODE: edit>>>\n<<<SWITCH_MODE: Browse>>>\n",
  );
  assert.deepEqual(d, { files: ["a.ts", "b.ts", "c d.ts"], mode: "browse" });
  assert.deepEqual(readDirectives("Use <<<REQUEST_FILE: x>>> inline"), { files: [] });
});

Deno.test("`modeOf()` keeps the last switch over several replies, else the start mode", () => {
  assert.equal(modeOf([], "browse"), "browse");
  assert.equal(modeOf(["<<<SWITCH_MODE: edit>>>", "no switch here"], "browse"), "edit");
  assert.equal(modeOf(["<<<SWITCH_MODE: edit>>>", "<<<SWITCH_MODE: browse>>>"], "edit"), "browse");
});

Deno.test("`splitContinue()` cuts a closing CONTINUE block and lists the files still to come", () => {
  assert.deepEqual(splitContinue("part one\n<<<CONTINUE>>>\n- b.ts\nc.ts\n<<<END>>>\n\n"), {
    before: "part one",
    remaining: ["b.ts", "c.ts"],
  });
  assert.deepEqual(splitContinue("x\n<<<CONTINUE>>>"), { before: "x", remaining: [] });
  assert.equal(splitContinue("x\n<<<CONTINUE>>>\na\n<<<END>>>\nmore text"), null);
  assert.equal(splitContinue("no continue"), null);
});

Deno.test("`joinParts()` puts one line break between parts", () => {
  assert.equal(joinParts("a", "b"), "a\nb");
  assert.equal(joinParts("a\n", "b"), "a\nb");
  assert.equal(joinParts("", "b"), "b");
});
