import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadSessions } from "../../../core/history/lookup.ts";
import {
  renderTranscript,
  TRANSCRIPT_LINES,
  verdictText,
} from "../../../core/history/transcript.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/history/sessions", import.meta.url));

function fail(message: string): never {
  throw new Error(message);
}

Deno.test("`renderTranscript()` shows each tool call with every gate's verdict", async () => {
  const [a] = await loadSessions(FIXTURES, { projectPath: "/fixture/alpha" }, fail);
  const text = renderTranscript(a);
  assert.match(text, /^Session 20260101-100000-aaaaaa\n/);
  assert.match(text, /totals +5 turns, 6087 tokens \(prompt 6000, completion 87\), 4 tool calls/);
  assert.match(
    text,
    /tool call: write_to_file README\.md\n {4}path: README\.md\n {4}content: # Hello\n {4}gate mode: pass \(agent mode\)\n {4}gate security: pass\n {4}gate approval: ask \(default: write tools ask\): write tools ask before they run\n {4}gate approval: pass \(user: allow once\)\n {4}allowed by: user: allow once\n {4}backups: c1\n/,
  );
  assert.match(
    text,
    /gate security: deny \(delete-root\) \[critical\]: deletes the whole file system\n/,
  );
  assert.match(text, /result of execute_command: failed \(denied\), 0 ms\n/);
  assert.match(text, /system \(unclosed\)\n {4}The tool call read_file is not closed\n/);
  assert.match(text, /assistant \(20 tokens, 0\.5 s\)\n {4}Reading it first\.\n/);
});

Deno.test("`renderTranscript()` marks invalid calls and shortens long texts unless full", async () => {
  const [b] = await loadSessions(FIXTURES, { since: new Date("2026-01-10T00:00:00Z") }, fail);
  assert.match(
    renderTranscript(b),
    /tool call: read_file a\.ts\n {4}path: a\.ts\n {4}start_line: abc\n {4}gates: none \(the call was invalid\)\n/,
  );
  const long = Array.from({ length: TRANSCRIPT_LINES + 5 }, (_, i) => `line ${i + 1}`).join("\n");
  const big = {
    ...b,
    messages: [{ role: "user" as const, content: long, timestamp: b.timestamp }],
  };
  const short = renderTranscript(big);
  assert.match(short, new RegExp(`line ${TRANSCRIPT_LINES}\\n {4}… 5 more lines \\(--full\\)\\n$`));
  assert.doesNotMatch(short, new RegExp(`line ${TRANSCRIPT_LINES + 1}\\n`));
  assert.match(
    renderTranscript(big, { full: true }),
    new RegExp(`line ${TRANSCRIPT_LINES + 5}\\n$`),
  );
});

Deno.test("`verdictText()` shows gate, action, rule, risk and reason", () => {
  assert.equal(verdictText({ gate: "security", action: "pass" }), "security: pass");
  assert.equal(
    verdictText({ gate: "approval", action: "deny", rule: "user: deny", reason: "no" }),
    "approval: deny (user: deny): no",
  );
});

Deno.test("`renderTranscript()` shows the backup ids recorded on a tool response", async () => {
  const [a] = await loadSessions(FIXTURES, { projectPath: "/fixture/alpha" }, fail);
  const response = {
    role: "tool_response" as const,
    content: "Deleted old.txt",
    timestamp: "2026-01-01T10:00:09.000Z",
    tool: "delete_file",
    ok: true,
    toolMs: 2,
    backupIds: ["c4", "c5"],
  };
  const text = renderTranscript({ ...a, messages: [response] });
  assert.match(
    text,
    /\[10:00:09\] result of delete_file: ok, 2 ms\n {4}backups: c4, c5\n {4}Deleted old\.txt\n$/,
  );
});
