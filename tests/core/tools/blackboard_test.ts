import assert from "node:assert/strict";
import { createBlackboard } from "../../../core/tools/blackboard.ts";
import { blackboardGet } from "../../../core/tools/blackboard_get.ts";
import { blackboardPut } from "../../../core/tools/blackboard_put.ts";
import { callTool, testContext } from "../../support/tool_context.ts";

Deno.test("blackboard_put registers an artifact that blackboard_get reads back and lists", async () => {
  const seen: number[] = [];
  const ctx = testContext("/p", { blackboard: createBlackboard((e) => seen.push(e.length)) });
  const put = await callTool(blackboardPut, {
    key: "notes",
    kind: "file",
    path: "build/notes.md",
    summary: "Notes in brand colours",
  }, ctx);
  assert.ok(put.ok);
  await callTool(blackboardPut, { key: "check", kind: "note", summary: "All fine" }, ctx);
  const one = await callTool(blackboardGet, { key: "notes" }, ctx);
  assert.equal(one.output, "- notes (file) build/notes.md: Notes in brand colours");
  const all = await callTool(blackboardGet, {}, ctx);
  assert.equal(all.output.split("\n").length, 2);
  const missing = await callTool(blackboardGet, { key: "nope" }, ctx);
  assert.equal(missing.code, "not_found");
  assert.match(missing.output, /keys: notes, check$/);
  assert.deepEqual(seen, [1, 2]);
});

Deno.test("the blackboard tools fail outside a workflow", async () => {
  const ctx = testContext("/p");
  assert.equal((await callTool(blackboardGet, {}, ctx)).code, "no_workflow");
  const put = await callTool(blackboardPut, { key: "k", kind: "note", summary: "s" }, ctx);
  assert.equal(put.code, "no_workflow");
});
