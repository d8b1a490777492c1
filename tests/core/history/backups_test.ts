import assert from "node:assert/strict";
import { join } from "node:path";
import {
  createBackupStore,
  DIR_STATE,
  parseManifest,
  sha256,
} from "../../../core/history/backups.ts";
import { withTempDir } from "../../support/tool_context.ts";

const enc = new TextEncoder();

Deno.test("`createBackupStore()` writes nothing until the first change", async () => {
  await withTempDir(async (dir) => {
    const store = await createBackupStore(join(dir, "s1"), "s1");
    assert.deepEqual(store.entries(), []);
    assert.equal(await Deno.stat(join(dir, "s1")).catch(() => null), null);
  });
});

Deno.test("`recordChange()` saves the previous content and appends one manifest line", async () => {
  await withTempDir(async (dir) => {
    const store = await createBackupStore(join(dir, "s1"), "s1");
    store.beginGroup("write_to_file a.txt");
    const before = enc.encode("old text");
    const id = await store.recordChange("/p/a.txt", { kind: "file", content: before }, "after");
    assert.deepEqual(store.endGroup(), [id]);
    const [entry] = store.entries();
    assert.equal(entry.path, "/p/a.txt");
    assert.equal(entry.existed, true);
    assert.equal(entry.label, "write_to_file a.txt");
    assert.equal(entry.beforeHash, await sha256(before));
    assert.equal(entry.afterHash, "after");
    assert.deepEqual(await store.readBackup(entry), before);
    const lines = (await Deno.readTextFile(join(dir, "s1", "manifest.jsonl"))).split("\n");
    assert.equal(lines.length, 2);
    assert.equal(lines[1], "");
    assert.equal(JSON.parse(lines[0]).id, id);
  });
});

Deno.test("`createBackupStore()` reads back entries, patches and numbering after a restart", async () => {
  await withTempDir(async (dir) => {
    const first = await createBackupStore(join(dir, "s1"), "s1");
    first.beginGroup("g1");
    const a = await first.recordChange("/p/a", { kind: "absent" }, "h1");
    first.endGroup();
    await first.patch(a, { afterHash: "h2" });
    const b = await first.recordChange("/p/d", { kind: "dir" }, null);
    const again = await createBackupStore(join(dir, "s1"), "s1");
    const entries = again.entries();
    assert.deepEqual(entries.map((e) => [e.id, e.group, e.afterHash]), [[a, 1, "h2"], [
      b,
      2,
      null,
    ]]);
    assert.equal(entries[1].beforeHash, DIR_STATE);
    again.beginGroup("g3");
    const c = await again.recordChange("/p/c", { kind: "absent" }, "h3");
    assert.notEqual(c, a);
    assert.notEqual(c, b);
    assert.equal(again.entries()[2].group, 3);
  });
});

Deno.test("`parseManifest()` ignores a partial last line left by a crash", async () => {
  await withTempDir(async (dir) => {
    const store = await createBackupStore(join(dir, "s1"), "s1");
    await store.recordChange("/p/a", { kind: "absent" }, "h1");
    await store.recordChange("/p/b", { kind: "absent" }, "h2");
    const path = join(dir, "s1", "manifest.jsonl");
    const text = await Deno.readTextFile(path);
    // Cut the second line in the middle, as a crash during the write would.
    const cut = text.slice(0, text.indexOf("\n") + 1 + 30);
    await Deno.writeTextFile(path, cut);
    assert.deepEqual(parseManifest(cut).map((e) => e.path), ["/p/a"]);
    const reopened = await createBackupStore(join(dir, "s1"), "s1");
    assert.deepEqual(reopened.entries().map((e) => e.path), ["/p/a"]);
    // The next change starts on a line of its own and is read back.
    await reopened.recordChange("/p/c", { kind: "absent" }, "h3");
    const again = await createBackupStore(join(dir, "s1"), "s1");
    assert.deepEqual(again.entries().map((e) => e.path), ["/p/a", "/p/c"]);
  });
});

Deno.test("`parseManifest()` applies later patches by id and skips lines that are not entries", () => {
  const entry = {
    id: "c1",
    group: 1,
    path: "/p/a",
    existed: false,
    beforeHash: null,
    afterHash: "h1",
    timestamp: "2026-01-01T00:00:00.000Z",
  };
  const text = [
    JSON.stringify(entry),
    "not json",
    JSON.stringify({ id: "c9", undone: true }),
    JSON.stringify({ id: "c1", undone: true, timestamp: "x" }),
    "[1,2]",
  ].join("\n");
  assert.deepEqual(parseManifest(text), [{ ...entry, undone: true }]);
});

Deno.test("`patch()` rejects an id the store does not know", async () => {
  await withTempDir(async (dir) => {
    const store = await createBackupStore(join(dir, "s1"), "s1");
    await assert.rejects(
      store.patch("c7", { undone: true }),
      /Unknown backup "c7" in session "s1"/,
    );
  });
});

Deno.test("`prepare()` makes the folder and an empty manifest once; the first change then appends to it", async () => {
  await withTempDir(async (dir) => {
    const store = await createBackupStore(join(dir, "s1"), "s1");
    await Promise.all([store.prepare(), store.prepare()]);
    assert.equal((await Deno.stat(join(dir, "s1", "files"))).isDirectory, true);
    assert.equal(await Deno.readTextFile(join(dir, "s1", "manifest.jsonl")), "");
    const id = await store.recordChange("/p/a.txt", { kind: "absent" }, "after");
    const text = await Deno.readTextFile(join(dir, "s1", "manifest.jsonl"));
    assert.equal(JSON.parse(text).id, id);
    // A restart reads the prepared store as it reads any other.
    assert.deepEqual((await createBackupStore(join(dir, "s1"), "s1")).entries(), store.entries());
  });
});

Deno.test("`prepare()` never throws; a change after a failed one tries again and says why", async () => {
  await withTempDir(async (dir) => {
    const store = await createBackupStore(join(dir, "s1"), "s1");
    await Deno.writeTextFile(join(dir, "s1"), "a file where the folder would go");
    await store.prepare();
    await assert.rejects(
      () => store.recordChange("/p/a.txt", { kind: "absent" }, "x"),
      /Not a directory|File exists/,
    );
    await Deno.remove(join(dir, "s1"));
    await store.recordChange("/p/a.txt", { kind: "absent" }, "x");
    assert.equal(store.entries().length, 1);
  });
});
