import assert from "node:assert/strict";
import { join } from "node:path";
import type { FsPort } from "../../../interfaces/tool.ts";
import { realFs } from "../../../core/tools/fs_port.ts";
import { walkTree } from "../../../core/tools/walk.ts";
import { makeTree, withTempDir } from "../../support/tool_context.ts";

const TREE = {
  ".gitignore": "*.log\nbuild/\n!keep.log\n",
  "a.ts": "a",
  "debug.log": "x",
  "keep.log": "x",
  "build/x.js": "x",
  "node_modules/m/index.js": "x",
  ".git/HEAD": "ref",
  "src/.gitignore": "gen/\n!important.log\n/local.txt\n",
  "src/important.log": "x",
  "src/other.log": "x",
  "src/gen/g.ts": "x",
  "src/local.txt": "x",
  "src/sub/local.txt": "x",
  "src/b.ts": "b",
};

async function walkNames(fs: FsPort, root: string, cwd: string, recursive = true) {
  const names: string[] = [];
  await walkTree(
    { fs, root, cwd, recursive },
    (e) => void names.push(e.isDirectory ? `${e.rel}/` : e.rel),
  );
  return names;
}

Deno.test("walkTree() honours nested .gitignore files, negations and anchored patterns", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    assert.deepEqual(await walkNames(realFs, dir, dir), [
      ".gitignore",
      "a.ts",
      "keep.log",
      "src/",
      "src/.gitignore",
      "src/b.ts",
      "src/important.log",
      "src/sub/",
      "src/sub/local.txt",
    ]);
  });
});

Deno.test("walkTree() gives the same entries through a port that is not the real disk", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const port: FsPort = { ...realFs, readDir: (p) => realFs.readDir(p) };
    assert.deepEqual(await walkNames(port, dir, dir), await walkNames(realFs, dir, dir));
  });
});

Deno.test("walkTree() applies .gitignore files above the root up to the repository", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { ...TREE, ".git/HEAD": "ref" });
    // cwd is src itself, but the repository root's rules still apply
    const src = join(dir, "src");
    assert.deepEqual(await walkNames(realFs, src, src), [
      ".gitignore",
      "b.ts",
      "important.log",
      "sub/",
      "sub/local.txt",
    ]);
  });
});

Deno.test("walkTree() lists an ignored directory when it is asked for explicitly", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    assert.deepEqual(await walkNames(realFs, join(dir, "build"), dir), ["x.js"]);
  });
});

Deno.test("walkTree() lets a deeper .gitignore re-include a directory a parent file excludes", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, {
      ".gitignore": "dist/\n*.tmp\n",
      "pkg/.gitignore": "!dist/\n",
      "pkg/dist/out.js": "x",
      "pkg/dist/x.tmp": "x",
      "dist/gone.js": "x",
    });
    assert.deepEqual(await walkNames(realFs, dir, dir), [
      ".gitignore",
      "pkg/",
      "pkg/.gitignore",
      "pkg/dist/",
      "pkg/dist/out.js",
    ]);
  });
});

Deno.test("walkTree() lets a deeper .gitignore re-include a directory an anchored rule excludes", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, {
      ".gitignore": "/pkg/dist/\n",
      "pkg/.gitignore": "!dist/\n",
      "pkg/dist/out.js": "x",
    });
    const names = await walkNames(realFs, dir, dir);
    assert.ok(names.includes("pkg/dist/out.js"), names.join(","));
  });
});

Deno.test("walkTree() lists one level only when not recursive, and counts what it ignored", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const names: string[] = [];
    const summary = await walkTree({ fs: realFs, root: dir, cwd: dir, recursive: false }, (e) => {
      names.push(e.name);
    });
    assert.deepEqual(names, [".gitignore", "a.ts", "keep.log", "src"]);
    assert.equal(summary.ignored, 2);
  });
});

Deno.test("walkTree() stops at maxEntries and says so", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const summary = await walkTree({
      fs: realFs,
      root: dir,
      cwd: dir,
      recursive: true,
      maxEntries: 3,
    }, () => {});
    assert.equal(summary.entries, 3);
    assert.equal(summary.truncated, true);
  });
});

Deno.test("walkTree() does not follow symlinked directories", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "real/f.txt": "x" });
    await Deno.symlink(join(dir, "real"), join(dir, "link"));
    assert.deepEqual(await walkNames(realFs, dir, dir), ["link", "real/", "real/f.txt"]);
  });
});

Deno.test("walkTree() throws when the signal is aborted", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      walkTree({ fs: realFs, root: dir, cwd: dir, recursive: true, signal: ac.signal }, () => {}),
    );
  });
});
