import assert from "node:assert/strict";
import { dialectNote, replyForModel } from "../../../core/agent/dialect_note.ts";

Deno.test("`dialectNote()` reminds of the canonical form once per session, on one line", () => {
  const state = {};
  const call = {
    tool: "write_to_file",
    params: { path: "notes.md", content: "line one\nline two\n" },
  };
  const first = dialectNote({ kind: "call", call, dialect: "qwen3_coder" }, state);
  assert.equal(
    first,
    'Note: your call was read from the "qwen3_coder" format; minoc\'s own form is ' +
      "<tool_call><write_to_file><path>notes.md</path><content>line one…</content>" +
      "</write_to_file></tool_call>",
  );
  assert.equal(dialectNote({ kind: "call", call, dialect: "hermes_json" }, state), "");
  assert.equal(dialectNote({ kind: "call", call }, {}), "", "no reminder for the canonical form");
});

Deno.test("`dialectNote()` always passes on the parser's notice", () => {
  const state = { dialectReminded: true };
  const call = { tool: "execute_command", params: { command: "a && b" } };
  const note = dialectNote({ kind: "call", call, notice: "XML entities decoded" }, state);
  assert.equal(note, "Note: XML entities decoded");
});

Deno.test("`replyForModel()` leaves reasoning out unless asked to keep it", () => {
  const reply = { visible: "Done.", reasoning: "Think." };
  assert.equal(replyForModel(reply, false), "Done.");
  assert.equal(replyForModel(reply, true), "<think>\nThink.\n</think>\nDone.");
  assert.equal(replyForModel({ visible: "Done.", reasoning: "" }, true), "Done.");
});
