import assert from "node:assert/strict";
import { applyReplacements, parseSearchReplace } from "../../../core/tools/text_match.ts";

Deno.test("applyReplacements() replaces an exact unique match", () => {
  const r = applyReplacements("a\nb\nc\n", [{ search: "b", replace: "B" }]);
  assert.ok(r.ok);
  assert.equal(r.text, "a\nB\nc\n");
  assert.deepEqual(r.edits, [{ how: "exact", startLine: 2, lineCount: 1 }]);
});

Deno.test("applyReplacements() keeps `$&` and other replacement patterns literal", () => {
  const r = applyReplacements("x = 1\n", [{ search: "1", replace: "'$&$1'" }]);
  assert.ok(r.ok);
  assert.equal(r.text, "x = '$&$1'\n");
});

Deno.test("applyReplacements() reports every line when the search matches several places", () => {
  const r = applyReplacements("foo()\nbar\nfoo()\n", [{ search: "foo()", replace: "x" }]);
  assert.ok(!r.ok);
  assert.equal(r.code, "multiple_matches");
  assert.match(r.detail, /2 places \(lines 1, 3\)/);
  assert.match(r.detail, /more surrounding lines/);
});

Deno.test("applyReplacements() matches when the file has trailing spaces the search lacks", () => {
  const r = applyReplacements("a  \nb\t\nc\n", [{ search: "a\nb", replace: "A\nB" }]);
  assert.ok(r.ok);
  assert.equal(r.text, "A\nB\nc\n");
  assert.equal(r.edits[0].how, "trailing_whitespace");
});

Deno.test("applyReplacements() re-indents the replacement when only indentation differs", () => {
  const file = "class A {\n    run() {\n        go();\n    }\n}\n";
  const r = applyReplacements(file, [{
    search: "run() {\n    go();\n}",
    replace: "run() {\n    ready();\n    go();\n}",
  }]);
  assert.ok(r.ok);
  assert.equal(r.text, "class A {\n    run() {\n        ready();\n        go();\n    }\n}\n");
  assert.equal(r.edits[0].how, "indentation");
});

Deno.test("applyReplacements() maps space indentation onto a tab-indented file", () => {
  const file = "func() {\n\tif x {\n\t\treturn 1\n\t}\n}\n";
  const r = applyReplacements(file, [{
    search: "    if x {\n        return 1\n    }",
    replace: "    if x {\n        return 2\n    }",
  }]);
  assert.ok(r.ok);
  assert.equal(r.text, "func() {\n\tif x {\n\t\treturn 2\n\t}\n}\n");
});

Deno.test("applyReplacements() says where the closest place differs when nothing matches", () => {
  const file = "one\ntwo\nthree\nfour\n";
  const r = applyReplacements(file, [{ search: "two\nthree\nFIVE", replace: "x" }]);
  assert.ok(!r.ok);
  assert.equal(r.code, "no_match");
  assert.match(r.detail, /starts at line 2, but line 4 differs/);
  assert.match(r.detail, /the file has "four" where you wrote "FIVE"/);
});

Deno.test("applyReplacements() says so when no line matches the first search line", () => {
  const r = applyReplacements("a\nb\n", [{ search: "zzz", replace: "x" }]);
  assert.ok(!r.ok);
  assert.match(r.detail, /No line of the file matches its first line \("zzz"\)/);
});

Deno.test("applyReplacements() changes nothing when a later block fails", () => {
  const r = applyReplacements("a\nb\n", [
    { search: "a", replace: "A" },
    { search: "nope", replace: "x" },
  ]);
  assert.ok(!r.ok);
  assert.equal(r.block, 1);
});

Deno.test("applyReplacements() applies blocks in order, each to the result of the previous", () => {
  const r = applyReplacements("a\nb\n", [
    { search: "a", replace: "x" },
    { search: "x\nb", replace: "y" },
  ]);
  assert.ok(r.ok);
  assert.equal(r.text, "y\n");
});

Deno.test("applyReplacements() keeps CRLF line endings when the search uses LF", () => {
  const r = applyReplacements("a\r\nb\r\nc\r\n", [{ search: "a\nb", replace: "a\nB\nB2" }]);
  assert.ok(r.ok);
  assert.equal(r.text, "a\r\nB\r\nB2\r\nc\r\n");
});

Deno.test("applyReplacements() keeps the CR of lines in a mixed file on tolerant matches", () => {
  const r = applyReplacements("a\r\nb\r\nc\n", [{ search: "a\nb", replace: "A\nB" }]);
  assert.ok(r.ok);
  assert.equal(r.text, "A\r\nB\r\nc\n");
  assert.equal(r.edits[0].how, "trailing_whitespace");
});

Deno.test("applyReplacements() removes whole lines with their line break when the replacement is empty", () => {
  const r = applyReplacements("a\nb\nc\n", [{ search: "b", replace: "" }]);
  assert.ok(r.ok);
  assert.equal(r.text, "a\nc\n");
  assert.equal(r.edits[0].lineCount, 0);
});

Deno.test("applyReplacements() rejects an empty search on a file with content", () => {
  const r = applyReplacements("a\n", [{ search: "  \n", replace: "x" }]);
  assert.ok(!r.ok);
  assert.equal(r.code, "empty_search");
});

Deno.test("applyReplacements() fills an empty file when the search is empty", () => {
  const r = applyReplacements("", [{ search: "", replace: "hello\n" }]);
  assert.ok(r.ok);
  assert.equal(r.text, "hello\n");
});

Deno.test("applyReplacements() keeps the line break when the search ends with one and the replacement does not", () => {
  const r = applyReplacements("a\nb\n", [{ search: "a\n", replace: "x" }]);
  assert.ok(r.ok);
  assert.equal(r.text, "x\nb\n");
});

Deno.test("applyReplacements() reports several tolerant matches as ambiguous", () => {
  const r = applyReplacements("  x\ny\n    x\ny\n", [{ search: "x\ny", replace: "z" }]);
  assert.ok(!r.ok);
  assert.equal(r.code, "multiple_matches");
  assert.match(r.detail, /lines 1, 3/);
});

Deno.test("parseSearchReplace() reads several blocks and ignores text between them", () => {
  const diff = "intro\n<<<<<<< SEARCH\na\nb\n=======\nc\n>>>>>>> REPLACE\n\n" +
    "<<<<<<< SEARCH\nd\n=======\n>>>>>>> REPLACE\n";
  const p = parseSearchReplace(diff);
  assert.ok(p.ok);
  assert.deepEqual(p.blocks, [{ search: "a\nb", replace: "c" }, { search: "d", replace: "" }]);
});

Deno.test("parseSearchReplace() accepts CRLF and the ------- SEARCH / +++++++ REPLACE markers", () => {
  const p = parseSearchReplace("------- SEARCH\r\nx\r\n=======\r\ny\r\n+++++++ REPLACE");
  assert.ok(p.ok);
  assert.deepEqual(p.blocks, [{ search: "x", replace: "y" }]);
});

Deno.test("parseSearchReplace() explains a block without a divider", () => {
  const p = parseSearchReplace("<<<<<<< SEARCH\nx\n>>>>>>> REPLACE");
  assert.ok(!p.ok);
  assert.match(p.message, /Block 1 of the diff has no ======= line/);
  assert.match(p.message, /<<<<<<< SEARCH\nexact lines from the file/);
});

Deno.test("parseSearchReplace() explains an unclosed block", () => {
  const p = parseSearchReplace("<<<<<<< SEARCH\nx\n=======\ny\n");
  assert.ok(!p.ok);
  assert.match(p.message, /not closed with >>>>>>> REPLACE/);
});

Deno.test("parseSearchReplace() explains a diff with no blocks", () => {
  const p = parseSearchReplace("just replace foo with bar");
  assert.ok(!p.ok);
  assert.match(p.message, /no SEARCH\/REPLACE block/);
});
