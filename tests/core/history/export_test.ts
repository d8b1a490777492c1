import assert from "node:assert/strict";
import { defaultMetadata } from "../../../core/history/format.ts";
import { fileURLToPath } from "node:url";
import type { SessionFile } from "../../../interfaces/history.ts";
import { exportText, openAiLine, toChatExample } from "../../../core/history/export.ts";
import { loadSessions } from "../../../core/history/lookup.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/history/sessions", import.meta.url));

function fail(message: string): never {
  throw new Error(message);
}

async function fixtures(): Promise<SessionFile[]> {
  return await loadSessions(FIXTURES, {}, fail);
}

Deno.test("`exportText()` openai lines parse and keep system, user, assistant in order", async () => {
  const sessions = await fixtures();
  const lines = exportText(sessions, "openai").split("\n");
  assert.equal(lines.pop(), "");
  assert.equal(lines.length, 3);
  const first = JSON.parse(lines[0]) as { messages: { role: string; content: string }[] };
  assert.deepEqual(Object.keys(first), ["messages"]);
  const a = sessions[0];
  const expected = [
    { role: "system", content: a.systemPrompt },
    ...a.messages.filter((m) => m.role === "user" || m.role === "assistant")
      .map((m) => ({ role: m.role, content: m.content })),
  ];
  // The last user message (the result of attempt_completion) teaches nothing and is dropped.
  assert.deepEqual(first.messages, expected.slice(0, -1));
  assert.deepEqual(first.messages.map((m) => m.role), [
    "system",
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
    "assistant",
  ]);
  assert.match(
    first.messages[4].content,
    /^<tool_call>\n<write_to_file>\n<path>README\.md<\/path>/,
  );
  assert.match(first.messages[5].content, /^\[write_to_file README\.md\] Result:/);
});

Deno.test("`toChatExample()` turns a tool result with no following user message into one", () => {
  const session: SessionFile = {
    sessionId: "x",
    timestamp: "2026-01-01T00:00:00.000Z",
    model: "m",
    systemPrompt: "",
    projectPath: "/p",
    mode: "agent",
    metadata: defaultMetadata(),
    messages: [
      { role: "user", content: "go", timestamp: "t" },
      {
        role: "assistant",
        content: "<tool_call><read_file><path>a</path></read_file></tool_call>",
        timestamp: "t",
      },
      {
        role: "tool_call",
        content: "read_file a",
        timestamp: "t",
        call: { tool: "read_file", params: { path: "a" } },
      },
      {
        role: "tool_response",
        content: "missing",
        timestamp: "t",
        tool: "read_file",
        ok: false,
        code: "not_found",
      },
      { role: "assistant", content: "done", timestamp: "t" },
      { role: "system", content: "boom", timestamp: "t", event: "provider_error" },
    ],
  };
  assert.deepEqual(toChatExample(session).messages, [
    { role: "user", content: "go" },
    { role: "assistant", content: "<tool_call><read_file><path>a</path></read_file></tool_call>" },
    { role: "user", content: "[read_file] Error (not_found):\nmissing" },
    { role: "assistant", content: "done" },
  ]);
  assert.equal(openAiLine({ ...session, messages: session.messages.slice(0, 1) }), null);
});

Deno.test("`exportText()` jsonl writes each whole session on one line", async () => {
  const sessions = await fixtures();
  const text = exportText(sessions, "jsonl");
  const lines = text.trimEnd().split("\n");
  assert.equal(lines.length, 3);
  assert.deepEqual(lines.map((l) => JSON.parse(l)), sessions);
});
