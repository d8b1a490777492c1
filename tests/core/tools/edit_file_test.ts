import assert from "node:assert/strict";
import { join } from "node:path";
import type { ToolContext } from "../../../interfaces/tool.ts";
import { editFile } from "../../../core/tools/edit_file.ts";
import { readFile } from "../../../core/tools/read_file.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

async function readyContext(dir: string, files: Record<string, string>): Promise<ToolContext> {
  await makeTree(dir, files);
  const ctx = testContext(dir);
  for (const path of Object.keys(files)) await callTool(readFile, { path }, ctx);
  return ctx;
}

Deno.test("edit_file replaces the old text with the new one", async () => {
  await withTempDir(async (dir) => {
    const ctx = await readyContext(dir, { "app.ts": "const port = 3000;\nlisten(port);\n" });
    const r = await callTool(editFile, {
      path: "app.ts",
      old: "const port = 3000;",
      new: "const port = 8080;",
    }, ctx);
    assert.equal(r.ok, true);
    assert.equal(r.output, `Edited "app.ts": 1 block applied; it now has 2 lines.`);
    assert.deepEqual(r.changes, [{ path: join(dir, "app.ts"), action: "modify" }]);
    assert.equal(
      await Deno.readTextFile(join(dir, "app.ts")),
      "const port = 8080;\nlisten(port);\n",
    );
  });
});

Deno.test("edit_file refuses a file the model has not read", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.ts": "x\n" });
    const r = await callTool(editFile, { path: "a.ts", old: "x", new: "y" }, testContext(dir));
    assert.equal(r.code, "read_first");
    assert.match(r.output, /read it first/i);
    assert.equal(await Deno.readTextFile(join(dir, "a.ts")), "x\n");
  });
});

Deno.test("edit_file refuses a file changed on disk since it was read", async () => {
  await withTempDir(async (dir) => {
    const ctx = await readyContext(dir, { "a.ts": "x\n" });
    await Deno.writeTextFile(join(dir, "a.ts"), "x\nmore\n");
    const r = await callTool(editFile, { path: "a.ts", old: "x", new: "y" }, ctx);
    assert.equal(r.code, "read_first");
    assert.match(r.output, /changed on disk since you last read it/);
  });
});

Deno.test("edit_file may edit again right after its own edit", async () => {
  await withTempDir(async (dir) => {
    const ctx = await readyContext(dir, { "a.ts": "a\nb\n" });
    assert.equal((await callTool(editFile, { path: "a.ts", old: "a", new: "A" }, ctx)).ok, true);
    assert.equal((await callTool(editFile, { path: "a.ts", old: "b", new: "B" }, ctx)).ok, true);
    assert.equal(await Deno.readTextFile(join(dir, "a.ts")), "A\nB\n");
  });
});

Deno.test("edit_file tells the model how to fix a call that matches nothing", async () => {
  await withTempDir(async (dir) => {
    const ctx = await readyContext(dir, { "a.ts": "function f() {\n  return 1;\n}\n" });
    const r = await callTool(editFile, {
      path: "a.ts",
      old: "function f() {\n  return 2;\n}",
      new: "x",
    }, ctx);
    assert.equal(r.code, "no_match");
    assert.match(
      r.output,
      /^The <old> text was not found in "a.ts"\. The closest place starts at line 1/,
    );
    assert.match(r.output, /read_file shows it; leave out the line numbers/);
    assert.match(r.output, /Nothing was changed$/);
  });
});

Deno.test("edit_file refuses an old text found in several places", async () => {
  await withTempDir(async (dir) => {
    const ctx = await readyContext(dir, { "a.ts": "x();\ny();\nx();\n" });
    const r = await callTool(editFile, { path: "a.ts", old: "x();", new: "z();" }, ctx);
    assert.equal(r.code, "multiple_matches");
    assert.match(r.output, /matches 2 places \(lines 1, 3\)\. Include more surrounding lines/);
    assert.equal(await Deno.readTextFile(join(dir, "a.ts")), "x();\ny();\nx();\n");
  });
});

Deno.test("edit_file re-indents a whitespace-tolerant match and shows the new lines", async () => {
  await withTempDir(async (dir) => {
    const ctx = await readyContext(dir, { "a.py": "def f():\n    if x:\n        go()\n" });
    const r = await callTool(editFile, {
      path: "a.py",
      old: "if x:\n    go()",
      new: "if x:\n    stop()",
    }, ctx);
    assert.equal(r.ok, true);
    assert.match(r.output, /Note: the <old> text matched with indentation ignored/);
    assert.ok(r.output.includes("Lines 2-3 now read:\n2\t    if x:\n3\t        stop()"), r.output);
    assert.equal(
      await Deno.readTextFile(join(dir, "a.py")),
      "def f():\n    if x:\n        stop()\n",
    );
  });
});

Deno.test("edit_file keeps the CRLF line endings of the file", async () => {
  await withTempDir(async (dir) => {
    const ctx = await readyContext(dir, { "a.txt": "one\r\ntwo\r\n" });
    await callTool(editFile, { path: "a.txt", old: "one\ntwo", new: "1\n2\n3" }, ctx);
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "1\r\n2\r\n3\r\n");
  });
});

Deno.test("edit_file accepts SEARCH/REPLACE blocks in diff", async () => {
  await withTempDir(async (dir) => {
    const ctx = await readyContext(dir, { "a.ts": "a\nb\nc\n" });
    const diff =
      "<<<<<<< SEARCH\na\n=======\nA\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nc\n=======\nC\n>>>>>>> REPLACE";
    const r = await callTool(editFile, { path: "a.ts", diff }, ctx);
    assert.equal(r.ok, true);
    assert.equal(await Deno.readTextFile(join(dir, "a.ts")), "A\nb\nC\n");
  });
});

Deno.test("edit_file wants either diff or old and new", async () => {
  await withTempDir(async (dir) => {
    const ctx = await readyContext(dir, { "a.ts": "a\n" });
    const neither = await callTool(editFile, { path: "a.ts" }, ctx);
    assert.equal(neither.code, "invalid_args");
    assert.match(neither.output, /give <old> and <new> \(or <diff>\)/);
    const both = await callTool(editFile, { path: "a.ts", old: "a", new: "b", diff: "x" }, ctx);
    assert.match(both.output, /not both/);
    const half = await callTool(editFile, { path: "a.ts", old: "a" }, ctx);
    assert.match(half.output, /<old> and <new> go together/);
  });
});

Deno.test("edit_file deletes the old text when new is empty", async () => {
  await withTempDir(async (dir) => {
    const ctx = await readyContext(dir, { "a.ts": "keep\ndrop\nkeep2\n" });
    const r = await callTool(editFile, { path: "a.ts", old: "drop", new: "" }, ctx);
    assert.equal(r.ok, true);
    assert.equal(await Deno.readTextFile(join(dir, "a.ts")), "keep\nkeep2\n");
  });
});

Deno.test("edit_file points to write_to_file for a missing file", async () => {
  await withTempDir(async (dir) => {
    const r = await callTool(editFile, { path: "new.ts", old: "a", new: "b" }, testContext(dir));
    assert.equal(r.code, "not_found");
    assert.match(r.output, /use write_to_file to create it/);
  });
});

Deno.test("edit_file previews the edited text without writing", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.ts": "a\n" });
    const ctx = testContext(dir);
    const p = await editFile.preview!({ path: "a.ts", old: "a", new: "b" }, ctx);
    assert.deepEqual(p, { kind: "edit", path: join(dir, "a.ts"), before: "a\n", after: "b\n" });
    assert.equal(await Deno.readTextFile(join(dir, "a.ts")), "a\n");
  });
});

Deno.test("edit_file keeps the file's indentation when the old text lost it", async () => {
  await withTempDir(async (dir) => {
    const file = "def f():\n    if x:\n        return 1\n";
    const ctx = await readyContext(dir, { "f.py": file });
    const r = await callTool(editFile, {
      path: "f.py",
      old: "if x:\n    return 1",
      new: "if x:\n    log(x)\n    return 1",
    }, ctx);
    assert.equal(r.ok, true);
    assert.equal(
      await Deno.readTextFile(join(dir, "f.py")),
      "def f():\n    if x:\n        log(x)\n        return 1\n",
    );
  });
});

Deno.test("edit_file refuses a whitespace-relaxed match whose offset is not consistent", async () => {
  await withTempDir(async (dir) => {
    const file = "class A:\n  def f(self):\n        return 1\n";
    const ctx = await readyContext(dir, { "a.py": file });
    const r = await callTool(editFile, {
      path: "a.py",
      old: "def f(self):\n    return 1",
      new: "def f(self):\n    return 2",
    }, ctx);
    assert.equal(r.ok, false);
    assert.equal(r.code, "indentation");
    assert.match(r.output, /only with indentation ignored.*Nothing was changed/s);
    assert.equal(await Deno.readTextFile(join(dir, "a.py")), file);
  });
});
