import assert from "node:assert/strict";
import { join } from "node:path";
import { OverlayFs } from "../../../core/tools/overlay_fs.ts";
import { readsRealDisk, realFs } from "../../../core/tools/fs_port.ts";
import { listFiles } from "../../../core/tools/list_files.ts";
import { readFile } from "../../../core/tools/read_file.ts";
import { searchFiles } from "../../../core/tools/search_files.ts";
import { writeToFile } from "../../../core/tools/write_to_file.ts";
import { deleteFile } from "../../../core/tools/delete_file.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** Every file under `dir` with its content, to prove the disk is untouched. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string, rel: string) => {
    for await (const e of Deno.readDir(d)) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) {
        out[`${r}/`] = "";
        await walk(join(d, e.name), r);
      } else out[r] = await Deno.readTextFile(join(d, e.name));
    }
  };
  await walk(dir, "");
  return out;
}

Deno.test("`OverlayFs` reads the disk until written, then its own copy; the disk is untouched", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "disk\n" });
    const before = await snapshot(dir);
    const fs = new OverlayFs(realFs);
    assert.equal(dec(await fs.readFile(join(dir, "a.txt"))), "disk\n");
    await fs.writeFile(join(dir, "a.txt"), enc("memory\n"));
    await fs.writeFile(join(dir, "b.txt"), enc("new\n"));
    assert.equal(dec(await fs.readFile(join(dir, "a.txt"))), "memory\n");
    assert.equal((await fs.stat(join(dir, "b.txt")))?.size, 4);
    assert.deepEqual(await snapshot(dir), before);
    assert.equal(readsRealDisk(fs), false);
  });
});

Deno.test("`OverlayFs.remove()` hides a file and a whole tree; readDir merges and hides", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, {
      "keep.txt": "k",
      "old.txt": "o",
      "sub/x.txt": "x",
      "sub/deep/y.txt": "y",
    });
    const fs = new OverlayFs(realFs);
    await fs.remove(join(dir, "old.txt"));
    await fs.writeFile(join(dir, "new.txt"), enc("n"));
    assert.equal(await fs.stat(join(dir, "old.txt")), null);
    await assert.rejects(() => fs.readFile(join(dir, "old.txt")), Deno.errors.NotFound);
    await assert.rejects(() => fs.remove(join(dir, "sub")), /not empty/);
    await fs.remove(join(dir, "sub"), { recursive: true });
    assert.equal(await fs.stat(join(dir, "sub/deep/y.txt")), null);
    const names = (await fs.readDir(dir)).map((e) => e.name).sort();
    assert.deepEqual(names, ["keep.txt", "new.txt"]);
    assert.ok(await Deno.stat(join(dir, "sub/deep/y.txt")), "the disk still has it");
  });
});

Deno.test("`OverlayFs.mkdir()` creates parents with recursive, and a re-created directory starts empty", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "d/old.txt": "o" });
    const fs = new OverlayFs(realFs);
    await assert.rejects(() => fs.mkdir(join(dir, "x/y")), Deno.errors.NotFound);
    await fs.mkdir(join(dir, "x/y"), { recursive: true });
    assert.equal((await fs.stat(join(dir, "x")))?.isDirectory, true);
    await assert.rejects(() => fs.mkdir(join(dir, "x")), Deno.errors.AlreadyExists);
    await fs.remove(join(dir, "d"), { recursive: true });
    await fs.mkdir(join(dir, "d"));
    assert.deepEqual(await fs.readDir(join(dir, "d")), []);
    await assert.rejects(
      () => fs.writeFile(join(dir, "nowhere/f.txt"), enc("f")),
      Deno.errors.NotFound,
    );
  });
});

Deno.test("`OverlayFs.changes()` diffs files against the disk and lists directories", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, {
      "m.txt": "one\n",
      "same.txt": "s",
      "gone/a.txt": "a",
      "gone/b.txt": "b",
    });
    const fs = new OverlayFs(realFs);
    await fs.writeFile(join(dir, "m.txt"), enc("two\n"));
    await fs.writeFile(join(dir, "same.txt"), enc("s"));
    await fs.remove(join(dir, "gone"), { recursive: true });
    await fs.mkdir(join(dir, "made"));
    await fs.writeFile(join(dir, "made/c.txt"), enc("c"));
    const { files, dirs } = await fs.changes();
    assert.deepEqual(
      files.map((
        f,
      ) => [f.path.slice(dir.length + 1), f.before && dec(f.before), f.after && dec(f.after)]),
      [
        ["gone/a.txt", "a", null],
        ["gone/b.txt", "b", null],
        ["m.txt", "one\n", "two\n"],
        ["made/c.txt", null, "c"],
      ],
    );
    assert.deepEqual(dirs.map((d) => [d.path.slice(dir.length + 1), d.action]), [
      ["gone", "delete"],
      ["made", "create"],
    ]);
    assert.equal(new OverlayFs(realFs).untouched, true);
  });
});

Deno.test("file tools through `OverlayFs`: list, search and read see writes and deletes", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "src/a.ts": "const a = 1;\n", "src/b.ts": "const needle = 2;\n" });
    const before = await snapshot(dir);
    const ctx = testContext(dir, { fs: new OverlayFs(realFs) });
    const w = await callTool(
      writeToFile,
      { path: "src/c.ts", content: "const needle = 3;\n" },
      ctx,
    );
    assert.equal(w.ok, true, w.output);
    assert.equal((await callTool(deleteFile, { path: "src/b.ts" }, ctx)).ok, true);
    const list = await callTool(listFiles, { path: "src", recursive: "true" }, ctx);
    assert.match(list.output, /c\.ts/);
    assert.doesNotMatch(list.output, /b\.ts/);
    const found = await callTool(searchFiles, { pattern: "*.ts", content: "needle" }, ctx);
    assert.match(found.output, /src\/c\.ts/);
    assert.doesNotMatch(found.output, /src\/b\.ts/);
    const names = await callTool(searchFiles, { pattern: "*.ts" }, ctx);
    assert.match(names.output, /src\/c\.ts/);
    assert.doesNotMatch(names.output, /src\/b\.ts/);
    const read = await callTool(readFile, { path: "src/c.ts" }, ctx);
    assert.match(read.output, /needle = 3/);
    assert.deepEqual(await snapshot(dir), before);
  });
});
