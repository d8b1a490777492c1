import assert from "node:assert/strict";
import { askFollowupQuestion } from "../../../core/tools/ask_followup_question.ts";
import { callTool, TEST_ANSWER, testContext } from "../../support/tool_context.ts";

Deno.test("ask_followup_question returns the answer ctx.ask gives", async () => {
  const asked: string[] = [];
  const ctx = testContext("/tmp", {
    ask: (q) => {
      asked.push(q);
      return Promise.resolve("port 8080");
    },
  });
  const r = await callTool(askFollowupQuestion, { question: "Which port?" }, ctx);
  assert.equal(r.ok, true);
  assert.equal(r.output, "The user answered:\nport 8080");
  assert.deepEqual(asked, ["Which port?"]);
});

Deno.test("ask_followup_question passes on the fixed answer when no user is available", async () => {
  const r = await callTool(askFollowupQuestion, { question: "Which port?" }, testContext("/tmp"));
  assert.equal(r.output, `The user answered:\n${TEST_ANSWER}`);
});
