import assert from "node:assert/strict";
import { join } from "node:path";
import { backingUpFs, stateOf } from "../../../core/history/backup_fs.ts";
import { createBackupStore, DIR_STATE, sha256 } from "../../../core/history/backups.ts";
import { realFs } from "../../../core/tools/fs_port.ts";
import { makeTree, withTempDir } from "../../support/tool_context.ts";

const enc = new TextEncoder();

Deno.test("`backingUpFs()` saves a file once per group and keeps the last after-hash", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "v1" });
    const store = await createBackupStore(join(dir, ".backups"), "s");
    const fs = backingUpFs(realFs, store);
    const file = join(dir, "a.txt");
    store.beginGroup("edit a.txt");
    await fs.writeFile(file, enc.encode("v2"));
    await fs.writeFile(file, enc.encode("v3"));
    const ids = store.endGroup();
    assert.equal(ids.length, 1);
    const [entry] = store.entries();
    assert.equal(await Deno.readTextFile(file), "v3");
    assert.equal(new TextDecoder().decode(await store.readBackup(entry)), "v1");
    assert.equal(entry.afterHash, await sha256(enc.encode("v3")));
    store.beginGroup("write again");
    await fs.writeFile(file, enc.encode("v4"));
    assert.equal(store.endGroup().length, 1);
    assert.equal(store.entries().length, 2);
  });
});

Deno.test("`backingUpFs()` records the absence of a new file and the directories mkdir creates", async () => {
  await withTempDir(async (dir) => {
    const store = await createBackupStore(join(dir, ".backups"), "s");
    const fs = backingUpFs(realFs, store);
    store.beginGroup("write_to_file x/y/new.txt");
    await fs.mkdir(join(dir, "x", "y"), { recursive: true });
    await fs.writeFile(join(dir, "x", "y", "new.txt"), enc.encode("hi"));
    store.endGroup();
    const entries = store.entries();
    assert.deepEqual(
      entries.map((e) => [e.path, e.existed, e.beforeHash, e.afterHash === null ? null : "set"]),
      [
        [join(dir, "x"), false, null, "set"],
        [join(dir, "x", "y"), false, null, "set"],
        [join(dir, "x", "y", "new.txt"), false, null, "set"],
      ],
    );
    assert.equal(entries[0].afterHash, DIR_STATE);
    assert.equal(entries[2].backupFile, undefined);
  });
});

Deno.test("`backingUpFs()` saves every file and directory below a recursive remove", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "d/a.txt": "A", "d/sub/b.txt": "B" });
    await Deno.mkdir(join(dir, "d", "empty"));
    const store = await createBackupStore(join(dir, ".backups"), "s");
    const fs = backingUpFs(realFs, store);
    store.beginGroup("delete_file d");
    await fs.remove(join(dir, "d"), { recursive: true });
    store.endGroup();
    const rel = store.entries().map((e) => e.path.slice(dir.length + 1));
    assert.deepEqual(rel, ["d", "d/a.txt", "d/empty", "d/sub", "d/sub/b.txt"]);
    assert.ok(store.entries().every((e) => e.existed && e.afterHash === null));
    assert.equal(await stateOf(realFs, join(dir, "d")), null);
  });
});

Deno.test("`backingUpFs()` records the attempt when a write fails and rethrows", async () => {
  await withTempDir(async (dir) => {
    const store = await createBackupStore(join(dir, ".backups"), "s");
    const fs = backingUpFs(realFs, store);
    await assert.rejects(fs.writeFile(join(dir, "missing-dir", "f.txt"), enc.encode("x")));
    const [entry] = store.entries();
    assert.equal(entry.existed, false);
    // After the failure the path is still absent, and the entry says so.
    assert.equal(entry.afterHash, null);
  });
});

Deno.test("`stateOf()` tells a file's hash, a directory and absence apart", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "f.txt": "x" });
    assert.equal(await stateOf(realFs, join(dir, "f.txt")), await sha256(enc.encode("x")));
    assert.equal(await stateOf(realFs, dir), DIR_STATE);
    assert.equal(await stateOf(realFs, join(dir, "nope")), null);
  });
});
