/** `callAhead()`: the backup store is prepared while a changing call streams, and only then. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { callAhead } from "../../../core/agent/call_ahead.ts";
import { createBackupStore } from "../../../core/history/backups.ts";
import { tools } from "../../../core/tools/mod.ts";
import { withTempDir } from "../../support/tool_context.ts";

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** Lets the store's background preparation finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

Deno.test("callAhead() leaves the store unwritten while only reading or meta calls stream", async () => {
  await withTempDir(async (dir) => {
    const store = await createBackupStore(join(dir, "s1"), "s1");
    const ahead = callAhead(tools, store);
    for (
      const s of ["read_file notes.md", "list_files src", "attempt_completion", "no_such_tool x"]
    ) {
      ahead(s);
    }
    await settle();
    assert.equal(await exists(join(dir, "s1")), false);
  });
});

for (const summary of ["write_to_file notes.md", "execute_command npm test"]) {
  Deno.test(`callAhead() prepares the store once "${summary.split(" ")[0]}" streams`, async () => {
    await withTempDir(async (dir) => {
      const store = await createBackupStore(join(dir, "s1"), "s1");
      const ahead = callAhead(tools, store);
      ahead(summary);
      ahead(summary + " more");
      await settle();
      assert.equal(await exists(join(dir, "s1", "files")), true);
      assert.equal(await Deno.readTextFile(join(dir, "s1", "manifest.jsonl")), "");
    });
  });
}

Deno.test("callAhead() without a store (dry-run, no session) does nothing", () => {
  const ahead = callAhead(tools, null);
  ahead("write_to_file notes.md");
});
