import assert from "node:assert/strict";
import { conversationOf, pendingResult } from "../../../core/history/conversation.ts";
import { defaultMetadata } from "../../../core/history/format.ts";
import type { SessionFile, SessionMessage } from "../../../interfaces/history.ts";

const T = "2026-11-22T08:00:00.000Z";
const READ = { tool: "read_file", params: { path: "notes.md" } };

function session(messages: Omit<SessionMessage, "timestamp">[]): SessionFile {
  return {
    sessionId: "s",
    timestamp: T,
    model: "m",
    systemPrompt: "SYSTEM",
    projectPath: "/p",
    mode: "agent",
    messages: messages.map((m) => ({ ...m, timestamp: T }) as SessionMessage),
    metadata: defaultMetadata(),
  };
}

/** A whole tool turn as the loop records it. */
const turn: Omit<SessionMessage, "timestamp">[] = [
  { role: "assistant", content: "<tool_call>read</tool_call>" },
  { role: "tool_call", content: "read_file notes.md", call: READ, verdicts: [] },
  { role: "tool_response", content: "line one", tool: "read_file", ok: true },
  { role: "user", content: "[read_file notes.md] Result:\nline one" },
];

Deno.test("`conversationOf()` sends each tool result once: the user message, not the tool_response", () => {
  const s = session([
    { role: "user", content: "add a line" },
    ...turn,
    { role: "system", content: "unclosed", event: "unclosed" },
    { role: "assistant", content: "Done." },
  ]);
  assert.deepEqual(conversationOf(s), [
    { role: "system", content: "SYSTEM" },
    { role: "user", content: "add a line" },
    { role: "assistant", content: "<tool_call>read</tool_call>" },
    { role: "user", content: "[read_file notes.md] Result:\nline one" },
    { role: "assistant", content: "Done." },
  ]);
  assert.equal(pendingResult(s), undefined);
});

Deno.test("`pendingResult()` words the recorded result when the file stops before its user message", () => {
  const s = session([{ role: "user", content: "go" }, ...turn.slice(0, 3)]);
  assert.equal(pendingResult(s), "[read_file notes.md] Result:\nline one");
  const failed = session([
    { role: "user", content: "go" },
    ...turn.slice(0, 2),
    {
      role: "tool_response",
      content: "no such file",
      tool: "read_file",
      ok: false,
      code: "not_found",
    },
  ]);
  assert.equal(pendingResult(failed), "[read_file notes.md] Error (not_found):\nno such file");
});

Deno.test("`pendingResult()` says the effect is unknown when the tool never reported back", () => {
  const s = session([{ role: "user", content: "go" }, ...turn.slice(0, 2)]);
  assert.match(pendingResult(s)!, /^\[read_file notes\.md\] Error \(interrupted\):\n.*unknown/);
});

Deno.test("`pendingResult()` owes nothing after a resumed session's note or a plain answer", () => {
  assert.equal(pendingResult(session([{ role: "user", content: "hi" }])), undefined);
  assert.equal(
    pendingResult(
      session([{ role: "user", content: "hi" }, { role: "assistant", content: "Hi." }]),
    ),
    undefined,
  );
  const noted = session([
    ...turn.slice(0, 3),
    { role: "system", content: "Resumed", event: "resumed" },
    { role: "user", content: "[read_file notes.md] Result:\nline one" },
  ]);
  assert.equal(pendingResult(noted), undefined);
});
