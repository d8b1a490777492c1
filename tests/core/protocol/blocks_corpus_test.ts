/**
 * The edit-block corpus (tests/fixtures/blocks/): every case through the pure
 * parser and applier, and through the `apply_edit_blocks` tool on a real
 * temp directory.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { applyBlocks, parseBlocks } from "../../../core/protocol/bridge_format.ts";
import { applyEditBlocks } from "../../../core/tools/apply_edit_blocks.ts";
import { callTool, makeTree, testContext, withTempDir } from "../../support/tool_context.ts";
import { type BlockCase, loadCases } from "./blocks_cases.ts";

/** The files after the case: its files with the expected changes. */
function after(c: BlockCase): Record<string, string | null> {
  return c.error ? { ...c.files } : { ...c.files, ...c.expect };
}

Deno.test("the block corpus holds at least 40 cases covering every rule and error kind", async () => {
  const cases = await loadCases();
  assert.ok(cases.length >= 40, `only ${cases.length} cases`);
  const errors = new Set(cases.flatMap((c) => (c.error ? [c.error.kind] : [])));
  for (const k of ["hunk_not_found", "ambiguous", "file_not_found", "unclosed"]) {
    assert.ok(errors.has(k), `no case for ${k}`);
  }
  for (const rule of [1, 2, 3, 4, 5, 6, 7]) {
    assert.ok(cases.some((c) => c.about.includes(`Rule ${rule}`) || c.about.includes(`/${rule}`)));
  }
  assert.ok(cases.some((c) => Object.values(c.files).some((t) => t.includes("\r\n"))), "CRLF");
  assert.ok(cases.some((c) => Object.keys(c.expect).length >= 4), "several files");
});

Deno.test("`applyBlocks()` gives each corpus case its expected files or error", async () => {
  for (const c of await loadCases()) {
    const parsed = parseBlocks(c.reply);
    const result = parsed.ok ? await applyBlocks(parsed.blocks, (p) => c.files[p] ?? null) : parsed;
    if (c.error) {
      assert.equal(result.ok, false, `${c.name}: expected ${c.error.kind}`);
      if (result.ok) continue;
      assert.deepEqual({ kind: result.error, block: result.block }, c.error, c.name);
      assert.match(result.message, new RegExp(`^Block ${c.error.block} \\(`), c.name);
      continue;
    }
    assert.ok(result.ok, `${c.name}: ${result.ok ? "" : result.message}`);
    if (!result.ok) continue;
    const got: Record<string, string | null> = { ...c.files };
    for (const ch of result.changes) {
      assert.equal(ch.before, c.files[ch.path] ?? null, `${c.name}: before of ${ch.path}`);
      got[ch.path] = ch.after;
    }
    assert.deepEqual(got, after(c), c.name);
  }
});

Deno.test("`apply_edit_blocks` writes each corpus case's files on disk, or nothing on an error", async () => {
  for (const c of await loadCases()) {
    await withTempDir(async (dir) => {
      await makeTree(dir, c.files);
      const r = await callTool(applyEditBlocks, { blocks: c.reply }, testContext(dir));
      if (c.error) {
        assert.equal(r.ok, false, c.name);
        assert.equal(r.code, c.error.kind, c.name);
        assert.match(r.output, new RegExp(`Block ${c.error.block} .*Nothing was written`, "s"));
      } else assert.ok(r.ok, `${c.name}: ${r.output}`);
      for (const [path, want] of Object.entries(after(c))) {
        const got = await Deno.readTextFile(join(dir, path)).catch(() => null);
        assert.equal(got, want, `${c.name}: ${path}`);
      }
    });
  }
});
