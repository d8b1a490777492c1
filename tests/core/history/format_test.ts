import assert from "node:assert/strict";
import {
  dayFolder,
  defaultMetadata,
  newSessionId,
  parseSessionText,
  renderSession,
} from "../../../core/history/format.ts";
import type { SessionFile } from "../../../interfaces/history.ts";

const session: SessionFile = {
  sessionId: "20260101-000000-abcdef",
  timestamp: "2026-01-01T00:00:00.000Z",
  model: "m",
  systemPrompt: "line 1\nline 2",
  projectPath: "/p",
  mode: "agent",
  messages: [
    { role: "user", content: "a\nb", timestamp: "2026-01-01T00:00:01.000Z" },
    {
      role: "assistant",
      content: "c",
      timestamp: "2026-01-01T00:00:05.000Z",
      usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
    },
    { role: "tool_call", content: "x", timestamp: "2026-01-01T00:00:06.000Z" },
  ],
  metadata: { ...defaultMetadata(), totalTokens: 5 },
};

Deno.test("`renderSession()` puts the header, each message and the tail on their own lines", () => {
  const text = renderSession(session);
  const lines = text.split("\n");
  assert.equal(lines.length, 6);
  assert.match(lines[0], /"messages":\[$/);
  assert.match(lines[1], /^\{"role":"user".*\},$/);
  assert.match(lines[4], /^\],"metadata":\{/);
  assert.equal(lines[5], "");
  assert.deepEqual(JSON.parse(text), session);
});

Deno.test("`parseSessionText()` rebuilds totals when the tail itself was cut", () => {
  const text = renderSession(session);
  const cut = text.slice(0, text.indexOf("\n],") + 8);
  const { session: back, repaired } = parseSessionText(cut);
  assert.equal(repaired, true);
  assert.equal(back.messages.length, 3);
  assert.equal(back.metadata.totalTokens, 5);
  assert.equal(back.metadata.turns, 1);
  assert.equal(back.metadata.toolCalls, 1);
  assert.equal(back.metadata.duration, 6000);
  assert.equal(back.systemPrompt, "line 1\nline 2");
});

Deno.test("`parseSessionText()` throws when the text is neither JSON nor a session", () => {
  assert.throws(() => parseSessionText("hello"), /not valid JSON/);
  assert.throws(() => parseSessionText('{"a":1}'), /not a session/);
});

Deno.test("`newSessionId()` is the local time plus six hex digits, and `dayFolder()` the date", () => {
  const at = new Date(2026, 10, 2, 7, 5, 9);
  assert.match(newSessionId(at), /^20261102-070509-[0-9a-f]{6}$/);
  assert.notEqual(newSessionId(at), newSessionId(at));
  assert.equal(dayFolder(at), "2026-11-02");
});
