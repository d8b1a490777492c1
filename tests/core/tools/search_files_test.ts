import assert from "node:assert/strict";
import { realFs } from "../../../core/tools/fs_port.ts";
import { CONTENT_MAX_FILES, searchFiles } from "../../../core/tools/search_files.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

const TREE = {
  ".gitignore": "gen/\n",
  "src/a.ts": "import x from 'y';\nconst apiKey = read();\n// apiKey again\n",
  "src/b.md": "no api key here\nbut apiKey here\n",
  "src/deep/c.ts": "nothing\n",
  "src/gen/d.ts": "const apiKey = 1;\n",
  "logo.png": new Uint8Array([137, 80, 78, 71, 0, 0, 97, 112, 105, 75, 101, 121]),
};

Deno.test("search_files lists matching lines with line numbers, paths relative to cwd", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const r = await callTool(
      searchFiles,
      { pattern: "*", directory: "src", content: "apiKey" },
      testContext(dir),
    );
    assert.equal(r.ok, true);
    assert.equal(
      r.output,
      [
        `"apiKey" matches 3 lines in 2 files (3 files searched under src):`,
        "src/a.ts",
        "  2: const apiKey = read();",
        "  3: // apiKey again",
        "src/b.md",
        "  2: but apiKey here",
      ].join("\n"),
    );
    assert.equal(r.display, `Found "apiKey" in 2 files`);
  });
});

Deno.test("search_files limits the content search to files matching the name glob", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const r = await callTool(searchFiles, { pattern: "*.ts", content: "api.ey" }, testContext(dir));
    assert.match(
      r.output,
      /matches 2 lines in 1 file \(2 files searched under \. matching "\*\.ts"\)/,
    );
    assert.doesNotMatch(r.output, /b\.md|gen/);
  });
});

Deno.test("search_files lists file names when content is left out", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const r = await callTool(searchFiles, { pattern: "**/*.ts" }, testContext(dir));
    assert.equal(r.output, `2 files under . match "**/*.ts":\nsrc/a.ts\nsrc/deep/c.ts`);
    const byPath = await callTool(searchFiles, { pattern: "src/*.md" }, testContext(dir));
    assert.equal(byPath.output, `1 file under . match "src/*.md":\nsrc/b.md`);
  });
});

Deno.test("search_files skips binary files and says how many", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const r = await callTool(searchFiles, { pattern: "*", content: "apiKey" }, testContext(dir));
    assert.match(r.output, /\[1 binary file skipped\]/);
    assert.doesNotMatch(r.output, /logo\.png/);
  });
});

Deno.test("search_files searches an invalid expression as plain text and notes it", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.js": "call(x\nother\n" });
    const r = await callTool(searchFiles, { pattern: "*", content: "call(x" }, testContext(dir));
    assert.ok(r.output.includes("a.js\n  1: call(x"), r.output);
    assert.match(r.output, /\[Note: "call\(x" is not a valid regular expression/);
  });
});

Deno.test("search_files says when nothing matches and mentions ignored paths", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const r = await callTool(searchFiles, { pattern: "*", content: "zebra" }, testContext(dir));
    assert.equal(r.ok, true);
    assert.match(
      r.output,
      /^No matches for "zebra" \(4 files searched under \.\) \[1 path left out by \.gitignore\]/,
    );
    const none = await callTool(searchFiles, { pattern: "*.rs" }, testContext(dir));
    assert.match(none.output, /^No files under \. match "\*\.rs"/);
  });
});

Deno.test("search_files caps the files listed and counts the rest", async () => {
  await withTempDir(async (dir) => {
    const files: Record<string, string> = {};
    for (let i = 0; i < CONTENT_MAX_FILES + 20; i++) {
      files[`f${String(i).padStart(3, "0")}.txt`] = "hit\n";
    }
    await makeTree(dir, files);
    const r = await callTool(searchFiles, { pattern: "*", content: "hit" }, testContext(dir));
    assert.match(r.output, /matches 120 lines in 120 files/);
    assert.match(
      r.output,
      /\[20 more files not shown; narrow the pattern, directory or expression\]/,
    );
    assert.doesNotMatch(r.output, /f100\.txt/);
  });
});

Deno.test("search_files reports a missing directory and a file given as directory", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "x" });
    const ctx = testContext(dir);
    assert.equal(
      (await callTool(searchFiles, { pattern: "*", directory: "nope" }, ctx)).code,
      "not_found",
    );
    const file = await callTool(searchFiles, { pattern: "*", directory: "a.txt" }, ctx);
    assert.equal(file.code, "not_a_directory");
  });
});

Deno.test("search_files stops with an aborted result when the signal is aborted", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const ac = new AbortController();
    ac.abort();
    const r = await callTool(
      searchFiles,
      { pattern: "*", content: "x" },
      testContext(dir, { signal: ac.signal }),
    );
    assert.equal(r.ok, false);
    assert.equal(r.code, "aborted");
  });
});

Deno.test("search_files reads through a port that is not the real disk", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, TREE);
    const read: string[] = [];
    const fs = { ...realFs, readFile: (p: string) => (read.push(p), realFs.readFile(p)) };
    const r = await callTool(
      searchFiles,
      { pattern: "*.md", content: "apiKey" },
      testContext(dir, { fs }),
    );
    assert.match(r.output, /src\/b\.md\n {2}2: but apiKey here/);
    assert.deepEqual(read.map((p) => p.slice(dir.length)), ["/.gitignore", "/src/b.md"]);
  });
});
