import assert from "node:assert/strict";
import { join } from "node:path";
import type { AgentEvent } from "../../../interfaces/agent.ts";
import { DebugTrace } from "../../../core/history/debug_trace.ts";
import { parseSummaries } from "../../../core/history/debug_summary.ts";
import { nullRecorder } from "../../../core/history/recorder.ts";
import { setupLogs } from "../../../core/history/logs.ts";

const CALL = { tool: "write_to_file", params: { path: "a.txt", content: "x" } };

/** One turn with a call, then one that answers, as the loop emits them. */
async function session(trace: DebugTrace): Promise<void> {
  const recorder = trace.timeRecorder(nullRecorder({}));
  const ev = (e: AgentEvent) => trace.event(e);
  ev({ type: "turn_start", turn: 1 });
  ev({ type: "waiting", model: "m1" });
  ev({ type: "state", state: "streaming" });
  ev({ type: "text", text: "Writing." });
  ev({ type: "state", state: "parsing" });
  ev({ type: "parsed", result: { kind: "call", call: CALL }, ms: 0.05 });
  ev({ type: "reply_end" });
  await recorder.append({ role: "assistant", content: "Writing." });
  ev({ type: "tool_start", tool: "write_to_file", summary: "write_to_file a.txt" });
  ev({ type: "verdict", gate: "mode", action: "pass", rule: "agent mode" });
  ev({ type: "verdict", gate: "approval", action: "pass", rule: "--yes" });
  await recorder.append({ role: "tool_call", content: "write_to_file a.txt", call: CALL });
  ev({ type: "state", state: "running" });
  await recorder.append({ role: "tool_response", content: "Wrote", ok: true });
  ev({ type: "tool_end", tool: "write_to_file", ok: false, display: "Refused", ms: 1.5 });
  ev({ type: "turn_start", turn: 2 });
  ev({ type: "waiting", model: "m1" });
  ev({ type: "state", state: "streaming" });
  ev({ type: "state", state: "parsing" });
  ev({ type: "parsed", result: { kind: "none" }, ms: 0.01 });
  ev({ type: "reply_end" });
  await recorder.append({ role: "assistant", content: "Done." });
  ev({ type: "done", outcome: { kind: "answered", text: "Done." } });
}

Deno.test("`DebugTrace` prints one line per phase after the renderer's output", async () => {
  const lines: string[] = [];
  await session(new DebugTrace({ sessionId: "s1", terminal: (l) => lines.push(l) }));
  const names = lines.map((l) => l.split(" ").slice(0, 2).join(" "));
  assert.deepEqual(names, [
    "⏱ model",
    "⏱ parse",
    "⏱ gates",
    "⏱ tool",
    "⏱ record",
    "⏱ model",
    "⏱ parse",
    "⏱ record",
  ]);
  assert.match(lines[0], /^⏱ model [\d.]+ m?s · first token [\d.]+ m?s$/);
  assert.match(lines[1], /· call write_to_file$/);
  assert.match(lines[2], /· mode pass · approval pass$/);
  assert.match(lines[3], /^⏱ tool 1\.50 ms · write_to_file failed$/);
  assert.match(lines[6], /· no call$/);
});

Deno.test("`DebugTrace` writes states, verdicts, parse results and a summary to debug.log", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_trace_" });
  try {
    const logs = await setupLogs(dir, { debug: true });
    try {
      await session(new DebugTrace({ sessionId: "s1" }));
    } finally {
      await logs.dispose();
    }
    const log = await Deno.readTextFile(join(dir, "debug.log"));
    for (
      const text of [
        "state idle → waiting for m1",
        "state waiting → streaming",
        "state streaming → parsing",
        "state gating → recording",
        "state recording → gating",
        "state gating → running",
        'parse result {"kind":"call","call":{"tool":"write_to_file"',
        'verdict {"type":"verdict","gate":"approval","action":"pass","rule":"--yes"}',
        "timing gates ",
        "timing first token ",
      ]
    ) assert.ok(log.includes(text), `debug.log has "${text}"`);
    const [summary] = parseSummaries(log);
    assert.equal(summary.session, "s1");
    assert.equal(summary.turns, 2);
    assert.equal(summary.outcome, "answered");
    assert.deepEqual(Object.keys(summary.phases).sort(), [
      "first token",
      "gates",
      "model",
      "parse",
      "record",
      "tool",
    ]);
    assert.equal(summary.phases.model?.count, 2);
    assert.equal(summary.phases.record?.count, 2);
    assert.deepEqual(summary.errors, [{ kind: "tool", message: "write_to_file: Refused" }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
