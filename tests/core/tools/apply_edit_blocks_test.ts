import assert from "node:assert/strict";
import { join } from "node:path";
import type { FsPort } from "../../../interfaces/tool.ts";
import { applyEditBlocks } from "../../../core/tools/apply_edit_blocks.ts";
import { bridgeRequest } from "../../../core/tools/bridge_request.ts";
import { coerceArgs } from "../../../core/tools/dispatch.ts";
import { realFs } from "../../../core/tools/fs_port.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

const REPLY = "Changes:\n<<<DIFF: a.txt>>>\n@@\n-one\n+ONE\n<<<END>>>\n" +
  "<<<FILE: [NEW] sub/b.txt>>>\nbee\n<<<END>>>\n<<<DELETE: c.txt>>>\n";

Deno.test("`apply_edit_blocks` derives its paths from the blocks, whatever the call says", () => {
  const r = coerceArgs(applyEditBlocks, {
    tool: "apply_edit_blocks",
    params: { blocks: REPLY, path: ["elsewhere.txt"] },
  });
  assert.ok(r.ok);
  assert.deepEqual((r.args as { path: string[] }).path, ["a.txt", "sub/b.txt", "c.txt"]);
  const none = coerceArgs(applyEditBlocks, { tool: "apply_edit_blocks", params: { blocks: "x" } });
  assert.deepEqual(none.ok && (none.args as { path: string[] }).path, ["."]);
});

Deno.test("`apply_edit_blocks` previews every file of the change as one multi_edit", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "one\n", "c.txt": "sea\n" });
    const ctx = testContext(dir);
    const args = { blocks: REPLY, path: [] };
    assert.deepEqual(await applyEditBlocks.preview!(args, ctx), {
      kind: "multi_edit",
      files: [
        { path: join(dir, "a.txt"), before: "one\n", after: "ONE\n" },
        { path: join(dir, "sub/b.txt"), before: null, after: "bee\n" },
        { path: join(dir, "c.txt"), before: "sea\n", after: null },
      ],
    });
    const bad = { blocks: "<<<DIFF: a.txt>>>\n@@\n-zzz\n<<<END>>>\n", path: [] };
    assert.deepEqual(await applyEditBlocks.preview!(bad, ctx), { kind: "none" });
  });
});

Deno.test("`apply_edit_blocks` reports each file it changed and remembers them as fresh", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "one\n", "c.txt": "sea\n" });
    const ctx = testContext(dir);
    const r = await callTool(applyEditBlocks, { blocks: REPLY }, ctx);
    assert.ok(r.ok, r.output);
    assert.equal(
      r.output,
      "Applied the edit blocks: 3 files changed\n- modified a.txt (1 line)\n" +
        "- created sub/b.txt (1 line)\n- deleted c.txt",
    );
    assert.equal(r.display, "Changed 3 files: a.txt, sub/b.txt, c.txt");
    assert.deepEqual(r.changes, [
      { path: join(dir, "a.txt"), action: "modify" },
      { path: join(dir, "sub/b.txt"), action: "create" },
      { path: join(dir, "c.txt"), action: "delete" },
    ]);
    const info = await Deno.stat(join(dir, "a.txt"));
    assert.equal(
      ctx.files.check(join(dir, "a.txt"), {
        ...info,
        isSymlink: false,
        mtimeMs: info.mtime?.getTime() ?? null,
      }),
      "fresh",
    );
    const again = await callTool(
      applyEditBlocks,
      { blocks: "<<<FILE: a.txt>>>\nONE\n<<<END>>>\n" },
      ctx,
    );
    assert.equal(
      again.output,
      "The edit blocks change nothing: every file already has that content",
    );
  });
});

Deno.test("`apply_edit_blocks` puts written files back when a later write fails", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "one\n", "c.txt": "sea\n" });
    let writes = 0;
    const failing: FsPort = {
      ...realFs,
      async writeFile(path, data) {
        if (++writes === 2) throw new Error("disk full");
        await realFs.writeFile(path, data);
      },
    };
    const r = await callTool(applyEditBlocks, { blocks: REPLY }, testContext(dir, { fs: failing }));
    assert.equal(r.ok, false);
    assert.match(r.output, /disk full/);
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "one\n");
    assert.equal(await Deno.readTextFile(join(dir, "c.txt")), "sea\n");
  });
});

Deno.test("`apply_edit_blocks` tells the model which block failed and that nothing was written", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "x = 1\nx = 1\n" });
    const r = await callTool(
      applyEditBlocks,
      {
        blocks:
          "<<<FILE: [NEW] n.txt>>>\nn\n<<<END>>>\n<<<DIFF: a.txt>>>\n@@\n-x = 1\n+x = 2\n<<<END>>>\n",
      },
      testContext(dir),
    );
    assert.equal(r.code, "ambiguous");
    assert.equal(
      r.output,
      "Block 2 (DIFF a.txt): hunk 1 is ambiguous: it matches at lines 1, 2; add context lines " +
        "or give the right @@ -line number. Nothing was written: no block of this reply was " +
        "applied. Send all the blocks again, corrected.",
    );
    assert.equal(await Deno.stat(join(dir, "n.txt")).catch(() => null), null);
  });
});

Deno.test("`bridge_request` sends requested files fenced and acknowledges a mode switch", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "src/a.ts": "const a = 1;\n" });
    const ctx = testContext(dir);
    const r = await callTool(bridgeRequest, { path: ["src/a.ts", "nope.ts"], mode: "edit" }, ctx);
    assert.ok(r.ok);
    assert.match(r.output, /^Edit mode: from now on each message carries the full contents/);
    assert.match(r.output, /### src\/a\.ts\n```\nconst a = 1;\n```/);
    assert.match(r.output, /### nope\.ts\nFile "nope\.ts" does not exist/);
    assert.equal(r.display, "Sent 1 of 2 requested files");
    const info = await Deno.stat(join(dir, "src/a.ts"));
    const seen = {
      isFile: true,
      isDirectory: false,
      isSymlink: false,
      size: info.size,
      mtimeMs: info.mtime?.getTime() ?? null,
    };
    assert.equal(ctx.files.check(join(dir, "src/a.ts"), seen), "fresh");
    const missing = await callTool(bridgeRequest, { path: "gone.ts" }, ctx);
    assert.equal(missing.code, "not_found");
    const mode = await callTool(bridgeRequest, { mode: "browse" }, ctx);
    assert.equal(
      mode.output,
      "Browse mode: from now on each message carries only the project summary.",
    );
  });
});
