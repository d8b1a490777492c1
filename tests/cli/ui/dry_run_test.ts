import assert from "node:assert/strict";
import { dryRunTally, renderDryRun, verdictText } from "../../../cli/ui/dry_run.ts";
import { palette } from "../../../cli/ui/colors.ts";
import type { DryRunReport } from "../../../core/permission/dry_run_report.ts";

const plain = palette(false);

const REPORT: DryRunReport = {
  files: [{
    path: "a.txt",
    action: "create",
    diff: "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,1 @@\n+a\n",
  }],
  directories: [{ path: "build", action: "create" }],
  diff: "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,1 @@\n+a\n",
  commands: [{
    tool: "execute_command",
    command: "npm test\n  --watch",
    cwd: "/p",
    verdicts: [{ gate: "mode", action: "pass", rule: "agent mode" }, {
      gate: "dry-run",
      action: "simulate",
    }],
  }],
};

Deno.test("`renderDryRun()` lists files, directories, the diff and each command with its verdicts", () => {
  assert.equal(
    renderDryRun(REPORT, plain),
    "Dry run: nothing was changed on disk.\n" +
      "Files it would change (2):\n  create a.txt\n  create directory build/\n" +
      "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,1 @@\n+a\n" +
      "Commands it would have run (1):\n  $ npm test\n      --watch\n    in /p\n" +
      "    mode pass (agent mode) · dry-run simulate\n",
  );
});

Deno.test("`renderDryRun()` says so when nothing would change or run", () => {
  const empty: DryRunReport = { files: [], directories: [], diff: "", commands: [] };
  assert.equal(
    renderDryRun(empty, plain),
    "Dry run: nothing was changed on disk.\nNo file would change.\nNo command would have run.\n",
  );
});

Deno.test("`dryRunTally()` and `verdictText()` count and name", () => {
  assert.equal(
    dryRunTally(REPORT),
    "Dry run so far: 2 file changes in memory, 1 command not run (the full diff is shown when you quit)\n",
  );
  assert.equal(
    verdictText({ gate: "security", action: "deny", rule: "rm -rf" }),
    "security deny (rm -rf)",
  );
});
