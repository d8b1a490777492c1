import assert from "node:assert/strict";
import { join } from "node:path";
import { readFile } from "../../../core/tools/read_file.ts";
import { writeToFile } from "../../../core/tools/write_to_file.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

Deno.test("write_to_file creates a file and its parents, and reports what it did", async () => {
  await withTempDir(async (dir) => {
    const ctx = testContext(dir);
    const r = await callTool(writeToFile, { path: "a/b/notes.md", content: "# Notes\nline" }, ctx);
    assert.equal(r.ok, true);
    assert.equal(r.output, `Created "a/b/notes.md" (2 lines)`);
    assert.deepEqual(r.changes, [{ path: join(dir, "a/b/notes.md"), action: "create" }]);
    assert.equal(await Deno.readTextFile(join(dir, "a/b/notes.md")), "# Notes\nline\n");
  });
});

Deno.test("write_to_file writes an empty content as an empty file", async () => {
  await withTempDir(async (dir) => {
    const r = await callTool(writeToFile, { path: "empty.txt", content: "" }, testContext(dir));
    assert.equal(r.ok, true);
    assert.equal(await Deno.readTextFile(join(dir, "empty.txt")), "");
  });
});

Deno.test("write_to_file refuses to overwrite a file the model has not read", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "original\n" });
    const r = await callTool(writeToFile, { path: "a.txt", content: "new" }, testContext(dir));
    assert.equal(r.ok, false);
    assert.equal(r.code, "read_first");
    assert.match(
      r.output,
      /you have not read "a.txt" in this session\. Read it first with read_file/,
    );
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "original\n");
  });
});

Deno.test("write_to_file overwrites a file after it was read", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "original\n" });
    const ctx = testContext(dir);
    await callTool(readFile, { path: "a.txt" }, ctx);
    const r = await callTool(writeToFile, { path: "a.txt", content: "new\n" }, ctx);
    assert.equal(r.output, `Overwrote "a.txt" (1 line)`);
    assert.deepEqual(r.changes, [{ path: join(dir, "a.txt"), action: "modify" }]);
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "new\n");
  });
});

Deno.test("write_to_file refuses when the file changed on disk since it was read", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "original\n" });
    const ctx = testContext(dir);
    await callTool(readFile, { path: "a.txt" }, ctx);
    await Deno.writeTextFile(join(dir, "a.txt"), "ORIGINAL\n");
    await Deno.utime(join(dir, "a.txt"), new Date(), new Date(Date.now() + 5000));
    const r = await callTool(writeToFile, { path: "a.txt", content: "mine" }, ctx);
    assert.equal(r.code, "read_first");
    assert.match(r.output, /"a.txt" changed on disk since you last read it/);
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "ORIGINAL\n");
  });
});

Deno.test("write_to_file may overwrite its own write without a new read", async () => {
  await withTempDir(async (dir) => {
    const ctx = testContext(dir);
    await callTool(writeToFile, { path: "a.txt", content: "one" }, ctx);
    const r = await callTool(writeToFile, { path: "a.txt", content: "two" }, ctx);
    assert.equal(r.ok, true);
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "two\n");
  });
});

Deno.test("write_to_file keeps CRLF line endings of the file it replaces", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "w.bat": "echo 1\r\necho 2\r\n" });
    const ctx = testContext(dir);
    await callTool(readFile, { path: "w.bat" }, ctx);
    await callTool(writeToFile, { path: "w.bat", content: "echo 3\necho 4" }, ctx);
    assert.equal(await Deno.readTextFile(join(dir, "w.bat")), "echo 3\r\necho 4\r\n");
  });
});

Deno.test("write_to_file refuses a directory path and an unread binary file", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "sub/x": "", "b.bin": new Uint8Array([0, 1]) });
    const ctx = testContext(dir);
    assert.equal(
      (await callTool(writeToFile, { path: "sub", content: "x" }, ctx)).code,
      "is_directory",
    );
    const bin = await callTool(writeToFile, { path: "b.bin", content: "x" }, ctx);
    assert.equal(bin.code, "read_first");
    assert.match(bin.output, /binary file; delete it with delete_file first/);
  });
});

Deno.test("write_to_file previews the current and the new text", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "old\n" });
    const ctx = testContext(dir);
    const existing = await writeToFile.preview!({ path: "a.txt", content: "new" }, ctx);
    assert.deepEqual(existing, {
      kind: "edit",
      path: join(dir, "a.txt"),
      before: "old\n",
      after: "new\n",
    });
    const fresh = await writeToFile.preview!({ path: "b.txt", content: "x\n" }, ctx);
    assert.deepEqual(fresh, { kind: "edit", path: join(dir, "b.txt"), before: null, after: "x\n" });
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "old\n");
  });
});
