import assert from "node:assert/strict";
import { defaultMetadata } from "../../../core/history/format.ts";
import { replayUpdates } from "../../../cli/acp/replay.ts";
import type { SessionFile, SessionMessage } from "../../../interfaces/history.ts";

const at = "2026-01-01T00:00:00.000Z";
const m = (msg: Omit<SessionMessage, "timestamp">): SessionMessage => ({ ...msg, timestamp: at });

function session(messages: SessionMessage[]): SessionFile {
  return {
    sessionId: "s1",
    timestamp: at,
    model: "m",
    systemPrompt: "sys",
    projectPath: "/p",
    mode: "agent",
    messages,
    metadata: defaultMetadata(),
  };
}

Deno.test("replayUpdates() skips the loop's own messages and marks cut-short calls failed", () => {
  const call = { tool: "read_file", params: { path: "a.md" } };
  const updates = replayUpdates(
    session([
      m({ role: "user", content: "read a" }),
      m({ role: "assistant", content: "Sure.\n<tool_call>\n<read_file>…" }),
      m({ role: "tool_call", content: "read_file a.md", call }),
      m({ role: "tool_response", content: "x".repeat(5000), ok: true, tool: "read_file" }),
      m({ role: "user", content: "[read_file a.md] Result:\n…" }),
      m({ role: "assistant", content: "<tool_call><bogus></bogus></tool_call>" }),
      m({ role: "system", content: "unknown tool", event: "unknown_tool" }),
      m({ role: "user", content: "Your call was not valid…" }),
      m({ role: "assistant", content: "" }),
      m({ role: "system", content: "server down", event: "provider_error" }),
      m({ role: "user", content: "try again" }),
      m({ role: "tool_call", content: "read_file a.md", call }),
    ]),
    "/p",
  );
  const users = updates.filter((u) => u.sessionUpdate === "user_message_chunk")
    .map((u) =>
      u.sessionUpdate === "user_message_chunk" && u.content.type === "text" && u.content.text
    );
  assert.deepEqual(users, ["read a", "try again"]);
  const calls = updates.filter((u) => u.sessionUpdate === "tool_call");
  assert.deepEqual(calls.map((c) => c.sessionUpdate === "tool_call" && c.status), [
    "completed",
    "failed",
  ]);
  const first = calls[0];
  assert.ok(first.sessionUpdate === "tool_call");
  const text = first.content?.[0];
  assert.ok(text?.type === "content" && text.content.type === "text");
  assert.ok(text.content.text.length < 2100, "long output is cut");
  const messages = updates.filter((u) => u.sessionUpdate === "agent_message_chunk");
  assert.deepEqual(
    messages.map((u) =>
      u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" && u.content.text
    ),
    ["Sure.\n"],
  );
});
