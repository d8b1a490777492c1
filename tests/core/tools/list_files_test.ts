import assert from "node:assert/strict";
import { LIST_MAX_ENTRIES, listFiles } from "../../../core/tools/list_files.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

const TREE = {
  ".gitignore": "dist/\n*.log\n",
  "b.ts": "",
  "a.ts": "",
  "App.ts": "",
  "err.log": "",
  "dist/out.js": "",
  "node_modules/x/i.js": "",
  ".git/HEAD": "",
  "src/z.ts": "",
  "src/lib/y.ts": "",
};

Deno.test("list_files lists one level, sorted, directories marked, ignored paths left out", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const r = await callTool(listFiles, { path: "." }, testContext(dir));
    assert.equal(r.ok, true);
    assert.equal(
      r.output,
      "./: 5 entries\n.gitignore\nApp.ts\na.ts\nb.ts\nsrc/\n[2 paths left out by .gitignore]",
    );
  });
});

Deno.test("list_files lists everything below with recursive=true given as a raw string", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const r = await callTool(listFiles, { path: "src", recursive: " TRUE " }, testContext(dir));
    assert.equal(r.output, "src/ (recursive): 3 entries\nlib/\nlib/y.ts\nz.ts");
  });
});

Deno.test("list_files rejects a recursive value that is not true or false", async () => {
  await withTempDir(async (dir) => {
    const r = await callTool(listFiles, { path: ".", recursive: "yes" }, testContext(dir));
    assert.equal(r.code, "invalid_args");
    assert.match(r.output, /expected true or false/);
  });
});

Deno.test("list_files caps a large listing, keeps the shallowest entries, and counts the rest", async () => {
  await withTempDir(async (dir) => {
    const files: Record<string, string> = { "top.txt": "" };
    for (let i = 0; i < 30; i++) {
      for (let j = 0; j < 20; j++) files[`d${String(i).padStart(2, "0")}/f${j}.txt`] = "";
    }
    await makeTree(dir, files);
    const r = await callTool(listFiles, { path: ".", recursive: "true" }, testContext(dir));
    const lines = r.output.split("\n");
    assert.equal(lines[0], "./ (recursive): 631 entries");
    assert.equal(lines.length, 1 + LIST_MAX_ENTRIES + 1);
    assert.ok(lines.includes("top.txt"));
    assert.ok(lines.includes("d29/"));
    assert.equal(lines.at(-1), "[131 more not shown; list a subdirectory, or use search_files]");
  });
});

Deno.test("list_files reports a missing directory, a file path and an empty directory", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "f.txt": "" });
    await Deno.mkdir(`${dir}/empty`);
    const ctx = testContext(dir);
    assert.equal((await callTool(listFiles, { path: "nope" }, ctx)).code, "not_found");
    const file = await callTool(listFiles, { path: "f.txt" }, ctx);
    assert.equal(file.code, "not_a_directory");
    assert.match(file.output, /use read_file/);
    const empty = await callTool(listFiles, { path: "empty" }, ctx);
    assert.equal(empty.output, "empty/: 0 entries\n(empty)");
  });
});

Deno.test("list_files requires a path", async () => {
  await withTempDir(async (dir) => {
    const r = await callTool(listFiles, {}, testContext(dir));
    assert.equal(r.code, "invalid_args");
    assert.match(r.output, /missing parameter <path>/);
  });
});
