import assert from "node:assert/strict";
import { join } from "node:path";
import type { AnyTool, ToolContext } from "../../../interfaces/tool.ts";
import { backingUpFs } from "../../../core/history/backup_fs.ts";
import { type BackupStore, createBackupStore } from "../../../core/history/backups.ts";
import { formatUndoReport, undoChanges } from "../../../core/history/undo.ts";
import { deleteFile } from "../../../core/tools/delete_file.ts";
import { editFile } from "../../../core/tools/edit_file.ts";
import { realFs } from "../../../core/tools/fs_port.ts";
import { readFile } from "../../../core/tools/read_file.ts";
import { writeToFile } from "../../../core/tools/write_to_file.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

/** A project dir, a backup store outside it, and a tool context whose fs backs up. */
async function setup(dir: string): Promise<{ root: string; store: BackupStore; ctx: ToolContext }> {
  const root = join(dir, "project");
  await Deno.mkdir(root);
  const store = await createBackupStore(join(dir, "backups", "s1"), "s1");
  return { root, store, ctx: testContext(root, { fs: backingUpFs(realFs, store) }) };
}

/** Runs one tool call as one change group, as the lead does. */
async function call(
  store: BackupStore,
  ctx: ToolContext,
  tool: AnyTool,
  params: Record<string, string>,
): Promise<string[]> {
  store.beginGroup(`${tool.name} ${params.path}`);
  const result = await callTool(tool, params, ctx);
  const ids = store.endGroup();
  assert.ok(result.ok, result.output);
  return ids;
}

const exists = (p: string) => Deno.stat(p).then(() => true, () => false);

Deno.test("`undoChanges()` restores a file write_to_file overwrote", async () => {
  await withTempDir(async (dir) => {
    const { root, store, ctx } = await setup(dir);
    await makeTree(root, { "notes.md": "line one\n" });
    await call(store, ctx, readFile, { path: "notes.md" });
    await call(store, ctx, writeToFile, { path: "notes.md", content: "line one\nline two\n" });
    const report = await undoChanges(store, { last: true });
    assert.equal(await Deno.readTextFile(join(root, "notes.md")), "line one\n");
    assert.deepEqual(report.reverted.map((i) => i.action), ["restored"]);
    assert.deepEqual(report.skipped, []);
    assert.match(
      formatUndoReport(report, root),
      /Undo of write_to_file notes\.md:\n {2}restored +notes\.md\n/,
    );
  });
});

Deno.test("`undoChanges()` deletes a file write_to_file created, and the folders it made", async () => {
  await withTempDir(async (dir) => {
    const { root, store, ctx } = await setup(dir);
    await call(store, ctx, writeToFile, { path: "src/new/a.ts", content: "export {};\n" });
    assert.ok(await exists(join(root, "src/new/a.ts")));
    const report = await undoChanges(store);
    assert.deepEqual(report.reverted.map((i) => [i.action, i.path.slice(root.length)]), [
      ["deleted", "/src/new/a.ts"],
      ["deleted", "/src/new"],
      ["deleted", "/src"],
    ]);
    assert.deepEqual([...Deno.readDirSync(root)], []);
  });
});

Deno.test("`undoChanges()` reverts an edit_file change", async () => {
  await withTempDir(async (dir) => {
    const { root, store, ctx } = await setup(dir);
    await makeTree(root, { "app.ts": "const port = 3000;\nserve(port);\n" });
    await call(store, ctx, readFile, { path: "app.ts" });
    await call(store, ctx, editFile, { path: "app.ts", old: "3000", new: "8080" });
    assert.match(await Deno.readTextFile(join(root, "app.ts")), /8080/);
    await undoChanges(store);
    assert.equal(
      await Deno.readTextFile(join(root, "app.ts")),
      "const port = 3000;\nserve(port);\n",
    );
  });
});

Deno.test("`undoChanges()` recreates a deleted file and a deleted directory tree", async () => {
  await withTempDir(async (dir) => {
    const { root, store, ctx } = await setup(dir);
    await makeTree(root, { "old.txt": "keep me", "lib/a.ts": "A", "lib/deep/b.ts": "B" });
    await Deno.mkdir(join(root, "lib", "empty"));
    await call(store, ctx, deleteFile, { path: "old.txt" });
    await call(store, ctx, deleteFile, { path: "lib", recursive: "true" });
    assert.equal(await exists(join(root, "lib")), false);
    const report = await undoChanges(store, { all: true });
    assert.equal(await Deno.readTextFile(join(root, "old.txt")), "keep me");
    assert.equal(await Deno.readTextFile(join(root, "lib/a.ts")), "A");
    assert.equal(await Deno.readTextFile(join(root, "lib/deep/b.ts")), "B");
    assert.ok((await Deno.stat(join(root, "lib/empty"))).isDirectory);
    const actions = report.reverted.map((i) => [i.action, i.path.slice(root.length)]);
    // Files first (newest first); their folders then already exist again.
    assert.deepEqual(actions, [
      ["recreated", "/lib/empty"],
      ["recreated", "/lib/deep/b.ts"],
      ["unchanged", "/lib/deep"],
      ["recreated", "/lib/a.ts"],
      ["unchanged", "/lib"],
      ["recreated", "/old.txt"],
    ]);
    assert.match(formatUndoReport(report, root), /Reverted 4 changes, 2 already as before\n$/);
  });
});

Deno.test("`undoChanges()` leaves a file changed since alone unless force", async () => {
  await withTempDir(async (dir) => {
    const { root, store, ctx } = await setup(dir);
    const file = join(root, "notes.md");
    await makeTree(root, { "notes.md": "original\n" });
    await call(store, ctx, readFile, { path: "notes.md" });
    await call(store, ctx, writeToFile, { path: "notes.md", content: "by the agent\n" });
    await Deno.writeTextFile(file, "by the user\n");
    const refused = await undoChanges(store);
    assert.equal(await Deno.readTextFile(file), "by the user\n");
    assert.deepEqual(refused.reverted, []);
    assert.equal(refused.skipped.length, 1);
    assert.match(refused.skipped[0].reason ?? "", /changed since minoc changed it.*--force/);
    assert.match(formatUndoReport(refused, root), /skipped +notes\.md: it was changed since/);
    // Still pending: the same change is offered again, and force reverts it.
    const forced = await undoChanges(store, { force: true });
    assert.equal(await Deno.readTextFile(file), "original\n");
    assert.deepEqual(forced.reverted.map((i) => i.action), ["restored"]);
    assert.deepEqual(await undoChanges(store), { reverted: [], skipped: [] });
  });
});

Deno.test("`undoChanges()` walks back one group at a time, and all of them newest first", async () => {
  await withTempDir(async (dir) => {
    const { root, store, ctx } = await setup(dir);
    const file = join(root, "v.txt");
    await makeTree(root, { "v.txt": "v1\n" });
    await call(store, ctx, readFile, { path: "v.txt" });
    for (const v of ["v2\n", "v3\n", "v4\n"]) {
      await call(store, ctx, writeToFile, { path: "v.txt", content: v });
    }
    await undoChanges(store, { last: true });
    assert.equal(await Deno.readTextFile(file), "v3\n");
    await undoChanges(store, { last: true });
    assert.equal(await Deno.readTextFile(file), "v2\n");
    await call(store, ctx, readFile, { path: "v.txt" });
    await call(store, ctx, writeToFile, { path: "v.txt", content: "v5\n" });
    const all = await undoChanges(store, { all: true });
    assert.equal(await Deno.readTextFile(file), "v1\n");
    assert.deepEqual(all.reverted.map((i) => i.group), [6, 2]);
    assert.deepEqual(all.skipped, []);
  });
});

Deno.test("`undoChanges()` marks reverted changes in the manifest, so a new store sees them", async () => {
  await withTempDir(async (dir) => {
    const { root, store, ctx } = await setup(dir);
    await call(store, ctx, writeToFile, { path: "a.txt", content: "a" });
    await call(store, ctx, writeToFile, { path: "b.txt", content: "b" });
    await undoChanges(store);
    const reopened = await createBackupStore(store.dir, "s1");
    const second = await undoChanges(reopened);
    assert.deepEqual(second.reverted.map((i) => i.path), [join(root, "a.txt")]);
    assert.equal(formatUndoReport(await undoChanges(reopened), root), "Nothing to undo\n");
  });
});

Deno.test("`undoChanges()` leaves a directory it created alone when someone filled it", async () => {
  await withTempDir(async (dir) => {
    const { root, store, ctx } = await setup(dir);
    await call(store, ctx, writeToFile, { path: "gen/out.txt", content: "x" });
    await Deno.writeTextFile(join(root, "gen", "mine.txt"), "user file");
    const report = await undoChanges(store);
    assert.equal(await exists(join(root, "gen", "out.txt")), false);
    assert.equal(await Deno.readTextFile(join(root, "gen", "mine.txt")), "user file");
    assert.match(report.skipped[0].reason ?? "", /not empty/);
  });
});

Deno.test("`undoChanges()` counts a change that never happened as unchanged", async () => {
  await withTempDir(async (dir) => {
    const { root, store } = await setup(dir);
    const fs = backingUpFs(realFs, store);
    await assert.rejects(fs.writeFile(join(root, "no-dir", "f.txt"), new Uint8Array([1])));
    const report = await undoChanges(store);
    assert.deepEqual(report.reverted.map((i) => i.action), ["unchanged"]);
  });
});
