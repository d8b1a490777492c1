import assert from "node:assert/strict";
import { join } from "node:path";
import { readFile } from "../../../core/tools/read_file.ts";
import { replaceInFile } from "../../../core/tools/replace_in_file.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

const block = (search: string, replace: string) =>
  `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;

Deno.test("replace_in_file applies several blocks in order", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.ts": "let a = 1;\nlet b = 2;\n" });
    const ctx = testContext(dir);
    await callTool(readFile, { path: "a.ts" }, ctx);
    const diff = `${block("let a = 1;", "let a = 10;")}\n${
      block("let a = 10;\nlet b = 2;", "let ab = 12;")
    }`;
    const r = await callTool(replaceInFile, { path: "a.ts", diff }, ctx);
    assert.equal(r.ok, true);
    assert.equal(r.output, `Edited "a.ts": 2 blocks applied; it now has 1 line.`);
    assert.equal(await Deno.readTextFile(join(dir, "a.ts")), "let ab = 12;\n");
  });
});

Deno.test("replace_in_file changes nothing when one block fails, and names that block", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.ts": "x\ny\n" });
    const ctx = testContext(dir);
    await callTool(readFile, { path: "a.ts" }, ctx);
    const diff = `${block("x", "X")}\n${block("nope", "N")}`;
    const r = await callTool(replaceInFile, { path: "a.ts", diff }, ctx);
    assert.equal(r.code, "no_match");
    assert.match(r.output, /^SEARCH block 2 of 2 was not found in "a.ts"/);
    assert.match(r.output, /Blocks apply in order/);
    assert.equal(await Deno.readTextFile(join(dir, "a.ts")), "x\ny\n");
  });
});

Deno.test("replace_in_file explains a malformed diff", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.ts": "x\n" });
    const ctx = testContext(dir);
    await callTool(readFile, { path: "a.ts" }, ctx);
    const r = await callTool(replaceInFile, { path: "a.ts", diff: "<<<<<<< SEARCH\nx\n" }, ctx);
    assert.equal(r.code, "invalid_diff");
    assert.match(r.output, /has no ======= line/);
  });
});

Deno.test("replace_in_file applies the read-modify-write guard", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.ts": "x\n" });
    const r = await callTool(
      replaceInFile,
      { path: "a.ts", diff: block("x", "y") },
      testContext(dir),
    );
    assert.equal(r.code, "read_first");
  });
});

Deno.test("replace_in_file previews the result, or nothing for a malformed diff", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.ts": "x\n" });
    const ctx = testContext(dir);
    const p = await replaceInFile.preview!({ path: "a.ts", diff: block("x", "y") }, ctx);
    assert.deepEqual(p, { kind: "edit", path: join(dir, "a.ts"), before: "x\n", after: "y\n" });
    assert.deepEqual(await replaceInFile.preview!({ path: "a.ts", diff: "junk" }, ctx), {
      kind: "none",
    });
  });
});
