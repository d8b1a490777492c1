import assert from "node:assert/strict";
import { describe, indentShift } from "../../../core/protocol/indent_shift.ts";
import { applyHunks, parseHunks } from "../../../core/protocol/blocks_diff.ts";
import { applyReplacements } from "../../../core/tools/text_match.ts";

Deno.test("indentShift() adds the missing leading whitespace to every new line", () => {
  const r = indentShift(["if (a) {", "}"], ["    if (a) {", "    }"], [
    "if (a) {",
    "  b();",
    "    c();",
    "",
    "}",
  ]);
  assert.deepEqual(r, {
    ok: true,
    lines: ["    if (a) {", "      b();", "        c();", "", "    }"],
  });
});

Deno.test("indentShift() removes extra leading whitespace the model added", () => {
  const r = indentShift(["      x = 1", "      y = 2"], ["  x = 1", "  y = 2"], [
    "      x = 3",
    "        z = 4",
  ]);
  assert.deepEqual(r, { ok: true, lines: ["  x = 3", "    z = 4"] });
});

Deno.test("indentShift() refuses a new line shallower than the extra indentation", () => {
  const r = indentShift(["    x = 1"], ["x = 1"], ["  y = 2"]);
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.reason : "", /indented 4 spaces deeper.*"y = 2"/);
});

Deno.test("indentShift() refuses offsets that differ from line to line", () => {
  const r = indentShift(["a", "  b"], ["  a", "      b"], ["a2", "  b2"]);
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.reason : "", /different amounts.*old line 1.*2 spaces.*old line 2/);
});

Deno.test("indentShift() maps spaces onto tabs level by level", () => {
  const r = indentShift(["  if x {", "    y", "  }"], ["\tif x {", "\t\ty", "\t}"], [
    "  if x {",
    "    y",
    "    z",
    "      w",
    "  }",
  ]);
  assert.deepEqual(r, { ok: true, lines: ["\tif x {", "\t\ty", "\t\tz", "\t\t\tw", "\t}"] });
});

Deno.test("indentShift() maps tabs onto a file indented with four spaces", () => {
  const r = indentShift(["\tfoo()", "\t\tbar()"], ["    foo()", "        bar()"], [
    "\tfoo()",
    "\t\tbaz()",
  ]);
  assert.deepEqual(r, { ok: true, lines: ["    foo()", "        baz()"] });
});

Deno.test("indentShift() refuses a file that mixes tabs and spaces inconsistently", () => {
  const r = indentShift(["a", "  b"], ["\ta", "    b"], ["a", "  c"]);
  assert.equal(r.ok, false);
});

Deno.test("describe() names tabs and spaces for people", () => {
  assert.equal(describe(""), "no indentation");
  assert.equal(describe("\t  "), "1 tab and 2 spaces");
});

Deno.test("applyReplacements() keeps the file's indentation when the search lost it", () => {
  const file = "def f():\n    if x:\n        return 1\n    return 2\n";
  const r = applyReplacements(file, [{
    search: "if x:\n    return 1",
    replace: "if x:\n    log(x)\n    return 1",
  }]);
  assert.ok(r.ok);
  assert.equal(r.text, "def f():\n    if x:\n        log(x)\n        return 1\n    return 2\n");
});

Deno.test("applyReplacements() refuses a whitespace-relaxed match with mixed offsets", () => {
  const file = "class A:\n  def f(self):\n        return 1\n";
  const r = applyReplacements(file, [{
    search: "def f(self):\n    return 1",
    replace: "def f(self):\n    return 2",
  }]);
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.code, "indentation");
  assert.equal(file.includes("return 2"), false);
});

Deno.test("applyReplacements() keeps CRLF and indentation together", () => {
  const file = "fn main() {\r\n    let a = 1;\r\n    let b = 2;\r\n}\r\n";
  const r = applyReplacements(file, [{ search: "let a = 1;\nlet b = 2;", replace: "let a = 3;" }]);
  assert.ok(r.ok);
  assert.equal(r.text, "fn main() {\r\n    let a = 3;\r\n}\r\n");
});

Deno.test("applyHunks() moves added lines by the offset a loose match needed", () => {
  const file = "class A {\n\trun() {\n\t\tgo();\n\t}\n}\n";
  const hunks = parseHunks(["@@ -2,3 +2,4 @@", " run() {", "+    ready();", "     go();", " }"]);
  const r = applyHunks(file, hunks);
  assert.ok(r.ok);
  assert.equal(r.text, "class A {\n\trun() {\n\t\tready();\n\t\tgo();\n\t}\n}\n");
});

Deno.test("applyHunks() refuses a loosely matched hunk whose offset is not consistent", () => {
  const file = "a\n  b\n        c\n";
  const hunks = parseHunks(["@@ @@", " a", " b", "-c", "+d"]);
  const r = applyHunks(file, hunks);
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.failure.kind, "indentation");
});
