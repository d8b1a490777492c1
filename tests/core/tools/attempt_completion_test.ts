import assert from "node:assert/strict";
import { attemptCompletion } from "../../../core/tools/attempt_completion.ts";
import { callTool, testContext } from "../../support/tool_context.ts";

Deno.test("attempt_completion carries the result as the completion", async () => {
  const r = await callTool(
    attemptCompletion,
    { result: "Done: added tests." },
    testContext("/tmp"),
  );
  assert.equal(r.ok, true);
  assert.equal(r.completion, "Done: added tests.");
});

Deno.test("attempt_completion rejects an empty result", async () => {
  const r = await callTool(attemptCompletion, { result: " " }, testContext("/tmp"));
  assert.equal(r.code, "invalid_args");
  assert.equal(r.completion, undefined);
});
