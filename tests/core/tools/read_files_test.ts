import assert from "node:assert/strict";
import { join } from "node:path";
import { readFiles } from "../../../core/tools/read_files.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

Deno.test("read_files gives each file a section and records every read", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "alpha\n", "b/c.txt": "gamma\ndelta\n" });
    const ctx = testContext(dir);
    const r = await callTool(readFiles, { path: ["a.txt", "b/c.txt", "a.txt"] }, ctx);
    assert.equal(r.ok, true);
    assert.equal(
      r.output,
      "==> a.txt (1 line) <==\n1\talpha\n\n==> b/c.txt (2 lines) <==\n1\tgamma\n2\tdelta",
    );
    assert.equal(r.display, "Read 2 of 2 files");
    for (const p of ["a.txt", "b/c.txt"]) {
      const info = await ctx.fs.stat(join(dir, p));
      assert.equal(ctx.files.check(join(dir, p), info!), "fresh");
    }
  });
});

Deno.test("read_files reports a failing file in its own section and still reads the others", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "alpha", "bin": new Uint8Array([0, 1, 2]) });
    const r = await callTool(
      readFiles,
      { path: ["missing.txt", "a.txt", "bin"] },
      testContext(dir),
    );
    assert.equal(r.ok, true);
    assert.match(r.output, /==> missing.txt <==\nError: File "missing.txt" does not exist/);
    assert.match(r.output, /==> a.txt \(1 line\) <==\n1\talpha/);
    assert.match(r.output, /==> bin <==\nError: "bin" is a binary file/);
    assert.equal(r.display, "Read 1 of 3 files");
  });
});

Deno.test("read_files fails when no file could be read", async () => {
  await withTempDir(async (dir) => {
    const r = await callTool(readFiles, { path: ["x", "y"] }, testContext(dir));
    assert.equal(r.ok, false);
    assert.equal(r.code, "not_found");
  });
});

Deno.test("read_files accepts a single path given as a plain string", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "alpha" });
    const r = await callTool(readFiles, { path: "a.txt" }, testContext(dir));
    assert.equal(r.ok, true);
    assert.match(r.output, /^==> a.txt/);
  });
});

Deno.test("read_files shares the output budget between files", async () => {
  await withTempDir(async (dir) => {
    const big = Array.from({ length: 3000 }, (_, i) => `row ${i} ${"x".repeat(40)}`).join("\n");
    await makeTree(dir, { "a.txt": big, "b.txt": big });
    const r = await callTool(readFiles, { path: ["a.txt", "b.txt"] }, testContext(dir));
    assert.ok(r.output.length < 55_000, String(r.output.length));
    assert.equal(r.output.match(/To read more, call read_file with start_line/g)?.length, 2);
  });
});
