import assert from "node:assert/strict";
import { join } from "node:path";
import {
  exists,
  reachable,
  readsRealDisk,
  realFs,
  statExists,
  useNodeExists,
} from "../../../core/tools/fs_port.ts";
import { withTempDir } from "../../support/tool_context.ts";

Deno.test("realFs.stat() returns null for a missing path", async () => {
  await withTempDir(async (dir) => {
    assert.equal(await realFs.stat(join(dir, "nope")), null);
  });
});

Deno.test("realFs writes, reads, stats and lists files and directories", async () => {
  await withTempDir(async (dir) => {
    await realFs.mkdir(join(dir, "a/b"), { recursive: true });
    await realFs.writeFile(join(dir, "a/f.txt"), new TextEncoder().encode("hi"));
    assert.equal(new TextDecoder().decode(await realFs.readFile(join(dir, "a/f.txt"))), "hi");
    const f = await realFs.stat(join(dir, "a/f.txt"));
    assert.equal(f?.isFile, true);
    assert.equal(f?.size, 2);
    assert.equal(typeof f?.mtimeMs, "number");
    assert.equal((await realFs.stat(join(dir, "a")))?.isDirectory, true);
    const names = (await realFs.readDir(join(dir, "a"))).map((e) => `${e.name}:${e.isDirectory}`)
      .sort();
    assert.deepEqual(names, ["b:true", "f.txt:false"]);
    await realFs.remove(join(dir, "a"), { recursive: true });
    assert.equal(await realFs.stat(join(dir, "a")), null);
  });
});

Deno.test("realFs.stat() follows a symlink but reports it, and describes a dangling one", async () => {
  await withTempDir(async (dir) => {
    await Deno.mkdir(join(dir, "target"));
    await Deno.symlink(join(dir, "target"), join(dir, "link"));
    const link = await realFs.stat(join(dir, "link"));
    assert.equal(link?.isSymlink, true);
    assert.equal(link?.isDirectory, true);
    await Deno.symlink(join(dir, "gone"), join(dir, "dangling"));
    const dangling = await realFs.stat(join(dir, "dangling"));
    assert.equal(dangling?.isSymlink, true);
    assert.equal(dangling?.isFile, false);
  });
});

Deno.test("readsRealDisk() holds for realFs and write-only decorators, not for read overlays", () => {
  assert.equal(readsRealDisk(realFs), true);
  const backups = { ...realFs, writeFile: () => Promise.resolve() };
  assert.equal(readsRealDisk(backups), true);
  const overlay = { ...realFs, readFile: (p: string) => realFs.readFile(p) };
  assert.equal(readsRealDisk(overlay), false);
});

/** A folder `d`, a file `f`, links to each, a dangling link and a link to itself. */
async function links(dir: string): Promise<void> {
  await Deno.mkdir(join(dir, "d"));
  await Deno.writeTextFile(join(dir, "f"), "x");
  await Deno.symlink(join(dir, "f"), join(dir, "to-file"));
  await Deno.symlink(join(dir, "d"), join(dir, "to-dir"));
  await Deno.symlink(join(dir, "gone"), join(dir, "dangling"));
  await Deno.symlink(join(dir, "loop"), join(dir, "loop"));
}

Deno.test("reachable() answers alike on the real disk and through an overlay: links followed, a dangling one is nothing", async () => {
  await withTempDir(async (dir) => {
    await links(dir);
    const overlay = { ...realFs, stat: (p: string) => realFs.stat(p) };
    assert.equal(readsRealDisk(overlay), false);
    const expected = {
      d: true,
      f: true,
      "to-file": true,
      "to-dir": true,
      dangling: false,
      gone: false,
    };
    for (const fs of [realFs, overlay]) {
      const got: Record<string, boolean> = {};
      for (const name of Object.keys(expected)) got[name] = await reachable(fs, join(dir, name));
      assert.deepEqual(got, expected);
    }
    assert.equal(await reachable(realFs, join(dir, "f", "below")), false);
  });
});

Deno.test("exists() answers alike by stat and by Node's existsSync: links followed, a dangling one, a path through a file or a loop is nothing", async () => {
  await withTempDir(async (dir) => {
    await links(dir);
    const expected = {
      d: true,
      f: true,
      "to-file": true,
      "to-dir": true,
      "d/": true,
      dangling: false,
      gone: false,
      loop: false,
      "f/below": false,
      "to-dir/x": false,
    };
    const answers = (ask: (p: string) => boolean) =>
      Object.fromEntries(Object.keys(expected).map((name) => [name, ask(join(dir, name))]));
    assert.deepEqual(answers(statExists), expected);
    useNodeExists();
    assert.deepEqual(answers(exists), expected);
  });
});
