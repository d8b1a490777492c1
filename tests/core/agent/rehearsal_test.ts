import assert from "node:assert/strict";
import { join } from "node:path";
import type { AnyTool, ToolContext } from "../../../interfaces/tool.ts";
import { rehearse } from "../../../core/agent/rehearsal.ts";
import { tools } from "../../../core/tools/mod.ts";
import { withTempDir } from "../../support/tool_context.ts";

/** The real tools, each run also noted with the folder it ran in. */
function noting(seen: { tool: string; cwd: string }[]): AnyTool[] {
  return tools.map((t) =>
    ({
      ...t,
      execute: (args: never, ctx: ToolContext) => {
        seen.push({ tool: t.name, cwd: ctx.cwd });
        return t.execute(args, ctx);
      },
    }) as AnyTool
  );
}

Deno.test("rehearse() runs write, read, overwrite and list in a scratch folder, then removes it", async () => {
  await withTempDir(async (root) => {
    const seen: { tool: string; cwd: string }[] = [];
    let steps = 0;
    await rehearse(noting(seen), () => Promise.resolve(void steps++), root);
    assert.deepEqual(seen.map((s) => s.tool), [
      "write_to_file",
      "read_file",
      "write_to_file",
      "list_files",
    ]);
    assert.equal(steps, 4);
    const scratch = seen[0].cwd;
    assert.ok(scratch.startsWith(join(root, "minoc-warm-up-")), scratch);
    assert.ok(seen.every((s) => s.cwd === scratch));
    assert.deepEqual([...Deno.readDirSync(root)], [], "the scratch folder is gone");
  });
});

Deno.test("rehearse() never throws: an unusable temp root only skips it", async () => {
  await withTempDir(async (root) => {
    const seen: { tool: string; cwd: string }[] = [];
    await rehearse(noting(seen), () => Promise.resolve(), join(root, "missing", "deeper"));
    assert.deepEqual(seen, []);
  });
});
