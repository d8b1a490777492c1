import assert from "node:assert/strict";
import { join } from "node:path";
import { deleteFile } from "../../../core/tools/delete_file.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("delete_file deletes a file and reports the change", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "old.txt": "x" });
    const r = await callTool(deleteFile, { path: "old.txt" }, testContext(dir));
    assert.equal(r.ok, true);
    assert.equal(r.output, `Deleted "old.txt"`);
    assert.deepEqual(r.changes, [{ path: join(dir, "old.txt"), action: "delete" }]);
    assert.equal(await exists(join(dir, "old.txt")), false);
  });
});

Deno.test("delete_file deletes a directory only with recursive=true", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "d/a/b.txt": "x" });
    const ctx = testContext(dir);
    const refused = await callTool(deleteFile, { path: "d" }, ctx);
    assert.equal(refused.code, "is_directory");
    assert.match(refused.output, /pass recursive=true/);
    assert.equal(await exists(join(dir, "d/a/b.txt")), true);
    const r = await callTool(deleteFile, { path: "d", recursive: "true" }, ctx);
    assert.equal(r.output, `Deleted directory "d" and everything in it`);
    assert.equal(await exists(join(dir, "d")), false);
  });
});

Deno.test("delete_file removes a symlink, not what it points to", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "real/f.txt": "x" });
    await Deno.symlink(join(dir, "real"), join(dir, "link"));
    const r = await callTool(deleteFile, { path: "link" }, testContext(dir));
    assert.equal(r.ok, true);
    assert.equal(await exists(join(dir, "link")), false);
    assert.equal(await exists(join(dir, "real/f.txt")), true);
  });
});

Deno.test("delete_file reports a missing path and refuses the working directory", async () => {
  await withTempDir(async (dir) => {
    const ctx = testContext(dir);
    assert.equal((await callTool(deleteFile, { path: "nope" }, ctx)).code, "not_found");
    const cwd = await callTool(deleteFile, { path: ".", recursive: "true" }, ctx);
    assert.equal(cwd.code, "refused");
    assert.equal(await exists(dir), true);
  });
});

Deno.test("delete_file previews a text file's content being removed", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "bye\n", "d/x": "" });
    const ctx = testContext(dir);
    const p = await deleteFile.preview!({ path: "a.txt" }, ctx);
    assert.deepEqual(p, { kind: "edit", path: join(dir, "a.txt"), before: "bye\n", after: null });
    const d = await deleteFile.preview!({ path: "d", recursive: true }, ctx);
    assert.deepEqual(d, { kind: "edit", path: join(dir, "d"), before: null, after: null });
  });
});
