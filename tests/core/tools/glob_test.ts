import assert from "node:assert/strict";
import { compileGlob } from "../../../core/tools/glob.ts";

Deno.test("compileGlob() matches a slash-free pattern against the base name at any depth", () => {
  const m = compileGlob("*.ts");
  assert.equal(m("a.ts", "a.ts"), true);
  assert.equal(m("src/deep/b.ts", "b.ts"), true);
  assert.equal(m("src/b.tsx", "b.tsx"), false);
  assert.equal(m("src/ts", "ts"), false);
});

Deno.test("compileGlob() matches a pattern with a slash against the whole relative path", () => {
  const m = compileGlob("src/*.ts");
  assert.equal(m("src/a.ts", "a.ts"), true);
  assert.equal(m("src/x/a.ts", "a.ts"), false);
  assert.equal(m("lib/src/a.ts", "a.ts"), false);
});

Deno.test("compileGlob() lets ** span zero or more directories", () => {
  const m = compileGlob("**/*.md");
  assert.equal(m("README.md", "README.md"), true);
  assert.equal(m("docs/a/b.md", "b.md"), true);
  const under = compileGlob("src/**/*.ts");
  assert.equal(under("src/a.ts", "a.ts"), true);
  assert.equal(under("src/x/y/a.ts", "a.ts"), true);
  assert.equal(under("test/a.ts", "a.ts"), false);
});

Deno.test("compileGlob() supports braces, ? and character classes, ignoring case", () => {
  assert.equal(compileGlob("*.{ts,tsx}")("a/B.TSX", "B.TSX"), true);
  assert.equal(compileGlob("*.{ts,tsx}")("a/b.js", "b.js"), false);
  assert.equal(compileGlob("file?.txt")("file1.txt", "file1.txt"), true);
  assert.equal(compileGlob("file?.txt")("file10.txt", "file10.txt"), false);
  assert.equal(compileGlob("[ab]*.c")("beta.c", "beta.c"), true);
  assert.equal(compileGlob("[!ab]*.c")("beta.c", "beta.c"), false);
});

Deno.test("compileGlob() matches everything for an empty pattern, * and **", () => {
  for (const p of ["", "*", "**", " ./* "]) {
    assert.equal(compileGlob(p)("x/y/z.bin", "z.bin"), true, p);
  }
});

Deno.test("compileGlob() treats regex characters in names literally", () => {
  const m = compileGlob("a+b(1).txt");
  assert.equal(m("a+b(1).txt", "a+b(1).txt"), true);
  assert.equal(m("aab1.txt", "aab1.txt"), false);
});
