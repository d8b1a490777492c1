import assert from "node:assert/strict";
import { join } from "node:path";
import { createDirectory } from "../../../core/tools/create_directory.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

Deno.test("create_directory creates nested directories", async () => {
  await withTempDir(async (dir) => {
    const r = await callTool(createDirectory, { path: "a/b/c" }, testContext(dir));
    assert.equal(r.ok, true);
    assert.equal(r.output, `Created directory "a/b/c"`);
    assert.deepEqual(r.changes, [{ path: join(dir, "a/b/c"), action: "create" }]);
    assert.equal((await Deno.stat(join(dir, "a/b/c"))).isDirectory, true);
  });
});

Deno.test("create_directory accepts an existing directory and refuses an existing file", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "d/x": "", "f": "" });
    const ctx = testContext(dir);
    const same = await callTool(createDirectory, { path: "d" }, ctx);
    assert.equal(same.ok, true);
    assert.equal(same.changes, undefined);
    assert.match(same.output, /already exists/);
    const file = await callTool(createDirectory, { path: "f" }, ctx);
    assert.equal(file.code, "exists");
  });
});

Deno.test("create_directory rejects an empty path", async () => {
  await withTempDir(async (dir) => {
    const r = await callTool(createDirectory, { path: "  \n" }, testContext(dir));
    assert.equal(r.code, "invalid_args");
    assert.match(r.output, /path: must not be empty/);
  });
});
