import assert from "node:assert/strict";
import { join } from "node:path";
import { diffSnapshots, snapshot, undoCreated } from "../../../core/skills/snapshot.ts";
import { makeTree, withTempDir } from "../../support/tool_context.ts";

Deno.test("diffSnapshots() finds created and changed files and new folders; undoCreated() removes them", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "a", "skip/x.txt": "x", ".git/HEAD": "h" });
    const opts = { skip: [join(dir, "skip")] };
    const before = await snapshot(dir, opts);
    assert.ok(before.entries.has(join(dir, "a.txt")));
    assert.ok(!before.entries.has(join(dir, "skip", "x.txt")));
    assert.ok(!before.entries.has(join(dir, ".git", "HEAD")));
    await makeTree(dir, { "a.txt": "changed", "new/deep/b.txt": "b", "skip/y.txt": "y" });
    const diff = diffSnapshots(before, await snapshot(dir, opts));
    assert.deepEqual(diff.created, [join(dir, "new", "deep", "b.txt")]);
    assert.deepEqual(diff.modified, [join(dir, "a.txt")]);
    assert.deepEqual(diff.createdDirs, [join(dir, "new"), join(dir, "new", "deep")]);
    assert.deepEqual(await undoCreated(diff), [join(dir, "new", "deep", "b.txt")]);
    assert.equal(await Deno.stat(join(dir, "new")).then(() => true, () => false), false);
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "changed");
  });
});

Deno.test("snapshot() marks a walk that stops at the entry limit as partial", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "1": "", "2": "", "3": "" });
    const s = await snapshot(dir, { limit: 2 });
    assert.equal(s.entries.size, 2);
    assert.equal(s.partial, true);
  });
});
