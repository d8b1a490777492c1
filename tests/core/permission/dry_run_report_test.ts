import assert from "node:assert/strict";
import { join } from "node:path";
import { createDryRun } from "../../../core/permission/dry_run.ts";
import { dryRunReport, unifiedDiff } from "../../../core/permission/dry_run_report.ts";
import { realFs } from "../../../core/tools/fs_port.ts";
import { makeTree, withTempDir } from "../../support/tool_context.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("`unifiedDiff()` gives a git-style diff with /dev/null for an absent side", () => {
  assert.equal(
    unifiedDiff("a.txt", enc("one\n"), enc("one\ntwo\n")),
    "--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,2 @@\n one\n+two\n",
  );
  assert.equal(
    unifiedDiff("n.txt", null, enc("x\n")),
    "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,1 @@\n+x\n",
  );
  assert.equal(
    unifiedDiff("d.txt", enc("x\n"), null),
    "--- a/d.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n",
  );
  assert.equal(
    unifiedDiff("b.bin", new Uint8Array([0, 1, 2]), null),
    "Binary files a/b.bin and /dev/null differ\n",
  );
});

Deno.test("`dryRunReport()` lists each change relative to cwd, joins the diffs and the commands", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "keep.txt": "k\n", "old.txt": "o\n" });
    const dry = createDryRun(realFs);
    await dry.fs.writeFile(join(dir, "keep.txt"), enc("k2\n"));
    await dry.fs.remove(join(dir, "old.txt"));
    await dry.fs.mkdir(join(dir, "empty"));
    const report = await dryRunReport(dry, dir);
    assert.deepEqual(report.files.map((f) => [f.path, f.action]), [
      ["keep.txt", "modify"],
      ["old.txt", "delete"],
    ]);
    assert.deepEqual(report.directories, [{ path: "empty", action: "create" }]);
    assert.equal(
      report.diff,
      "--- a/keep.txt\n+++ b/keep.txt\n@@ -1,1 +1,1 @@\n-k\n+k2\n" +
        "--- a/old.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-o\n",
    );
    assert.deepEqual(report.commands, []);
  });
});
