import assert from "node:assert/strict";
import { join } from "node:path";
import { readFile } from "../../../core/tools/read_file.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

Deno.test("read_file shows a header and numbered lines, and records the read", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "src/a.ts": "one\ntwo\nthree\n" });
    const ctx = testContext(dir);
    const r = await callTool(readFile, { path: "src/a.ts" }, ctx);
    assert.equal(r.ok, true);
    assert.equal(r.output, "src/a.ts (3 lines)\n1\tone\n2\ttwo\n3\tthree");
    assert.equal(r.display, "Read src/a.ts (3 lines)");
    const info = await ctx.fs.stat(join(dir, "src/a.ts"));
    assert.equal(ctx.files.check(join(dir, "src/a.ts"), info!), "fresh");
  });
});

Deno.test("read_file shows the lines between start_line and end_line given as raw strings", async () => {
  await withTempDir(async (dir) => {
    const text = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n");
    await makeTree(dir, { "a.txt": text });
    const r = await callTool(
      readFile,
      { path: "a.txt", start_line: " 9", end_line: "10" },
      testContext(dir),
    );
    assert.equal(r.output, "a.txt (lines 9-10 of 12)\n 9\tline 9\n10\tline 10");
  });
});

Deno.test("read_file rejects a line number that is not a whole number", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "x" });
    const r = await callTool(readFile, { path: "a.txt", start_line: "two" }, testContext(dir));
    assert.equal(r.code, "invalid_args");
    assert.match(r.output, /expected a whole number/);
  });
});

Deno.test("read_file explains a range outside the file", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "1\n2\n" });
    const ctx = testContext(dir);
    const past = await callTool(readFile, { path: "a.txt", start_line: "5" }, ctx);
    assert.equal(past.code, "invalid_args");
    assert.match(past.output, /start_line 5 is past the end of "a.txt" \(2 lines\)/);
    const back = await callTool(readFile, { path: "a.txt", start_line: "2", end_line: "1" }, ctx);
    assert.match(back.output, /end_line 1 is before start_line 2/);
  });
});

Deno.test("read_file refuses a binary file and does not record it", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "img.png": new Uint8Array([137, 80, 78, 71, 0, 0, 1]) });
    const ctx = testContext(dir);
    const r = await callTool(readFile, { path: "img.png" }, ctx);
    assert.equal(r.ok, false);
    assert.equal(r.code, "binary_file");
    assert.match(r.output, /"img.png" is a binary file \(7 B\)/);
    const info = await ctx.fs.stat(join(dir, "img.png"));
    assert.equal(ctx.files.check(join(dir, "img.png"), info!), "unread");
  });
});

Deno.test("read_file reports a missing file and a directory", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "sub/x": "" });
    const ctx = testContext(dir);
    const missing = await callTool(readFile, { path: "nope.txt" }, ctx);
    assert.equal(missing.code, "not_found");
    assert.match(missing.output, /File "nope.txt" does not exist; use list_files or search_files/);
    const folder = await callTool(readFile, { path: "sub" }, ctx);
    assert.equal(folder.code, "is_directory");
  });
});

Deno.test("read_file caps a long file at 2000 lines and says how to read on", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, {
      "long.txt": Array.from({ length: 2500 }, (_, i) => `l${i + 1}`).join("\n"),
    });
    const r = await callTool(readFile, { path: "long.txt" }, testContext(dir));
    const lines = r.output.split("\n");
    assert.equal(lines[0], "long.txt (lines 1-2000 of 2500)");
    assert.equal(lines[2000], "2000\tl2000");
    assert.match(lines[2001], /call read_file with start_line 2001/);
    const rest = await callTool(
      readFile,
      { path: "long.txt", start_line: "2001" },
      testContext(dir),
    );
    assert.match(rest.output, /^long.txt \(lines 2001-2500 of 2500\)\n2001\tl2001/);
  });
});

Deno.test("read_file caps by characters and cuts one very long line", async () => {
  await withTempDir(async (dir) => {
    const wide = Array.from({ length: 100 }, () => "w".repeat(1000)).join("\n");
    await makeTree(dir, { "wide.txt": wide, "min.js": "x".repeat(300_000) });
    const ctx = testContext(dir);
    const r = await callTool(readFile, { path: "wide.txt" }, ctx);
    assert.ok(r.output.length <= 51_000, String(r.output.length));
    assert.match(r.output, /^wide.txt \(lines 1-49 of 100\)/);
    assert.match(r.output, /start_line 50/);
    const min = await callTool(readFile, { path: "min.js" }, ctx);
    assert.match(min.output, /… \[298000 more characters\]$/);
  });
});

Deno.test("read_file says when a file is empty", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "e.txt": "" });
    const r = await callTool(readFile, { path: "e.txt" }, testContext(dir));
    assert.equal(r.output, "e.txt (empty file)");
  });
});

Deno.test("read_file refuses a file too large to read whole", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "huge.log": "" });
    await Deno.truncate(join(dir, "huge.log"), 60 * 1024 * 1024);
    const r = await callTool(readFile, { path: "huge.log" }, testContext(dir));
    assert.equal(r.code, "too_large");
    assert.match(r.output, /"huge.log" is too large to read whole \(60.0 MB\); use search_files/);
  });
});
