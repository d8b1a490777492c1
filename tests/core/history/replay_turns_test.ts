import assert from "node:assert/strict";
import { defaultMetadata } from "../../../core/history/format.ts";
import { recordedTurns } from "../../../core/history/replay_turns.ts";
import {
  compareCall,
  compareResult,
  compareVerdicts,
  recordedDecision,
} from "../../../core/history/replay_compare.ts";
import type { SessionFile, SessionMessage } from "../../../interfaces/history.ts";

const T = "2026-11-22T08:00:00.000Z";
const READ = { tool: "read_file", params: { path: "a.md" } };

function session(messages: Omit<SessionMessage, "timestamp">[]): SessionFile {
  return {
    sessionId: "s",
    timestamp: T,
    model: "m",
    systemPrompt: "SYS",
    projectPath: "/p",
    mode: "agent",
    messages: messages.map((m) => ({ ...m, timestamp: T }) as SessionMessage),
    metadata: defaultMetadata(),
  };
}

Deno.test("`recordedTurns()` gives each reply its prefix and what came of it", () => {
  const turns = recordedTurns(session([
    { role: "user", content: "go" },
    { role: "assistant", content: "r1" },
    {
      role: "tool_call",
      content: "read_file a.md",
      call: READ,
      verdicts: [{ gate: "mode", action: "pass" }],
    },
    { role: "tool_response", content: "text", tool: "read_file", ok: true },
    { role: "user", content: "[read_file a.md] Result:\ntext" },
    { role: "assistant", content: "r2 <tool_call>" },
    { role: "system", content: "bad", event: "unclosed" },
    { role: "user", content: "Tool call error (unclosed)" },
    { role: "assistant", content: "r3" },
    { role: "system", content: "down", event: "provider_error" },
    { role: "user", content: "again" },
    { role: "assistant", content: "Done." },
  ]));
  assert.deepEqual(turns.map((t) => t.outcome.kind), ["call", "parse_error", "unknown", "none"]);
  assert.deepEqual(turns.map((t) => t.prefix.length), [2, 4, 6, 8]);
  assert.deepEqual(turns[1].prefix.at(-1), {
    role: "user",
    content: "[read_file a.md] Result:\ntext",
  });
  const first = turns[0].outcome;
  assert.ok(first.kind === "call" && first.response?.content === "text");
  assert.equal(turns[3].prefix.at(-1)!.content, "again");
});

Deno.test("`compareCall()` reports a changed parameter and accepts the same call", () => {
  const recorded = { kind: "call" as const, call: READ, verdicts: [] };
  assert.equal(compareCall(recorded, { kind: "call", call: READ }), null);
  const d = compareCall(recorded, {
    kind: "call",
    call: { tool: "read_file", params: { path: "b.md" } },
  });
  assert.deepEqual(d, {
    kind: "call",
    recorded: "call read_file a.md",
    today: 'call read_file b.md (parameter "path" differs)',
  });
  assert.equal(compareCall({ kind: "unknown", reason: "x" }, { kind: "none" }), null);
});

Deno.test("`compareVerdicts()` ignores the dry-run gate and names the gate that changed", () => {
  const recorded = [{ gate: "mode", action: "pass" as const }, {
    gate: "security",
    action: "pass" as const,
  }];
  const same = [...recorded, { gate: "dry-run", action: "simulate" as const }];
  assert.equal(compareVerdicts(recorded, same), null);
  const d = compareVerdicts(recorded, [
    { gate: "mode", action: "pass" },
    { gate: "security", action: "deny", rule: "rm-root", reason: "deletes /" },
  ]);
  assert.equal(d?.today, "mode pass, security deny (rm-root); deletes /");
});

Deno.test("`recordedDecision()` gives the recorded answer again and never approves unasked", () => {
  assert.deepEqual(
    recordedDecision([{ gate: "approval", action: "pass", rule: "user: allow once" }]),
    {
      kind: "once",
    },
  );
  assert.deepEqual(
    recordedDecision([{
      gate: "approval",
      action: "deny",
      rule: "user: deny",
      reason: "The user denied this call: not today",
    }]),
    { kind: "deny", reason: "not today" },
  );
  assert.equal(recordedDecision([{ gate: "mode", action: "pass" }]).kind, "deny");
});

Deno.test("`compareResult()` names the first line that differs", () => {
  const recorded = { role: "tool_response" as const, content: "a\nb\nc", timestamp: T, ok: true };
  assert.equal(compareResult(recorded, { ok: true, output: "a\nb\nc" }), null);
  assert.deepEqual(compareResult(recorded, { ok: true, output: "a\nB\nc" }), {
    kind: "result",
    recorded: 'ok, line 2: "b"',
    today: 'ok, line 2: "B"',
  });
  assert.equal(
    compareResult(recorded, { ok: false, output: "x", code: "not_found" })?.today,
    "failed (not_found)",
  );
});
