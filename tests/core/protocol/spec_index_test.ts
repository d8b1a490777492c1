import assert from "node:assert/strict";
import { specIndex } from "../../../core/protocol/spec_index.ts";
import type { ToolSpec } from "../../../interfaces/tool.ts";

const spec = (name: string): ToolSpec => ({ name, params: [] });

Deno.test("`specIndex()` is made once per list, and again for a list that grew", () => {
  const list = [spec("read_file"), spec("list_files")];
  const first = specIndex(list);
  assert.equal(specIndex(list), first, "the same list: the same index");
  assert.deepEqual([...first.names], ["read_file", "list_files"]);
  assert.equal(first.byName.get("list_files"), list[1]);
  list.push(spec("write_to_file"));
  const grown = specIndex(list);
  assert.notEqual(grown, first);
  assert.ok(grown.names.has("write_to_file"));
  assert.equal(grown.list, list);
  assert.ok(!specIndex([spec("other")]).names.has("read_file"), "another list, its own index");
});
