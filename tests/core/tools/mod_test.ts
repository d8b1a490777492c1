import assert from "node:assert/strict";
import { coerceArgs } from "../../../core/tools/dispatch.ts";
import { findTool, tools } from "../../../core/tools/mod.ts";

Deno.test("tools have unique names and findTool() finds each of them", () => {
  const names = tools.map((t) => t.name);
  assert.equal(new Set(names).size, names.length);
  for (const t of tools) assert.equal(findTool(t.name), t);
  assert.equal(findTool("no_such_tool"), undefined);
});

Deno.test("every tool's example passes its own validation from raw strings", () => {
  for (const t of tools) {
    const r = coerceArgs(t, { tool: t.name, params: t.example });
    assert.ok(r.ok, `${t.name}: ${r.ok ? "" : r.message}`);
  }
});

Deno.test("tool descriptions stay short for the system prompt", () => {
  for (const t of tools) {
    assert.ok(t.description.length <= 220, `${t.name}: ${t.description.length} characters`);
    for (const p of t.params) assert.ok(p.description.length <= 90, `${t.name}.${p.name}`);
  }
});

Deno.test("file-changing tools preview their change and bulk params are marked", () => {
  for (const name of ["write_to_file", "edit_file", "replace_in_file", "delete_file"]) {
    assert.equal(typeof findTool(name)?.preview, "function", name);
  }
  const bulk = tools.flatMap((t) =>
    t.params.filter((p) => p.bulk).map((p) => `${t.name}.${p.name}`)
  );
  assert.deepEqual(bulk.sort(), [
    "edit_file.diff",
    "replace_in_file.diff",
    "write_to_file.content",
  ]);
  assert.equal(findTool("read_files")?.params[0].multiple, true);
});
