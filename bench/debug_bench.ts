/**
 * Benchmark of debug mode's own cost, so `--debug` timings can be trusted:
 *
 * - `trace_turn_us`: one turn's events (state changes, parse result, two
 *   verdicts, tool start and end, three timed recorder writes) through
 *   {@link DebugTrace}, with debug.log really written;
 * - `request_log_us`: one request and its reply through `withDebugLog` with a
 *   50-message conversation of 2 KB messages (the body is written in full);
 * - `off_turn_us`: the same turn with debug mode off (the loop's own `emit`).
 *
 * Aim: a traced turn costs well under a millisecond, i.e. negligible next to
 * model latency; with debug off the cost is the bare event calls.
 *
 * Run alone: `deno run -A bench/debug_bench.ts`.
 *
 * @module
 */
import { join } from "node:path";
import type { AgentEvent, LlmProvider, StreamEvent } from "../interfaces/agent.ts";
import { DebugTrace } from "../core/history/debug_trace.ts";
import { setupLogs } from "../core/history/logs.ts";
import { nullRecorder } from "../core/history/recorder.ts";
import { withDebugLog } from "../core/llm/debug.ts";

const ROUNDS = 2000;
const CALL = { tool: "write_to_file", params: { path: "a.txt", content: "x".repeat(200) } };

async function turn(emit: (e: AgentEvent) => void, record: () => Promise<void>): Promise<void> {
  emit({ type: "turn_start", turn: 1 });
  emit({ type: "waiting", model: "m" });
  emit({ type: "state", state: "streaming" });
  emit({ type: "state", state: "parsing" });
  emit({ type: "parsed", result: { kind: "call", call: CALL }, ms: 0.01 });
  emit({ type: "reply_end" });
  await record();
  emit({ type: "tool_start", tool: "write_to_file", summary: "write_to_file a.txt" });
  emit({ type: "verdict", gate: "mode", action: "pass", rule: "agent mode" });
  emit({ type: "verdict", gate: "approval", action: "pass", rule: "--yes" });
  await record();
  emit({ type: "state", state: "running" });
  await record();
  emit({ type: "tool_end", tool: "write_to_file", ok: true, display: "Wrote a.txt", ms: 1 });
}

async function perRound(fn: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 100; i++) await fn();
  const start = performance.now();
  for (let i = 0; i < ROUNDS; i++) await fn();
  return Math.round(((performance.now() - start) / ROUNDS) * 1000 * 10) / 10;
}

/** Runs the benchmark; returns microseconds per turn or request. */
export async function benchDebug(): Promise<Record<string, number>> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_debug_bench_" });
  const logs = await setupLogs(join(dir, "logs"), { debug: true, maxSize: 1 << 30 });
  try {
    const plain = nullRecorder({});
    const off_turn_us = await perRound(() =>
      turn(() => {}, () => plain.append({ role: "user", content: "x" }))
    );
    const trace = new DebugTrace({ sessionId: "bench" });
    const timed = trace.timeRecorder(plain);
    const trace_turn_us = await perRound(() =>
      turn((e) => trace.event(e), () => timed.append({ role: "user", content: "x" }))
    );
    const reply: StreamEvent[] = [
      ...Array.from({ length: 50 }, (_, i) => ({ type: "text" as const, text: `word${i} ` })),
      { type: "end", reason: "stop" },
    ];
    const inner: LlmProvider = {
      name: "bench",
      model: "m",
      endpoint: "http://127.0.0.1/v1",
      async *stream() {
        for (const e of reply) yield e;
      },
    };
    const provider = withDebugLog(inner, { params: { model: "m" }, hasKey: true });
    const messages = Array.from({ length: 50 }, (_, i) => ({
      role: (i % 2 ? "assistant" : "user") as "user" | "assistant",
      content: `message ${i} `.repeat(180),
    }));
    const request_log_us = await perRound(async () => {
      for await (const _ of provider.stream({ messages })) { /* drain */ }
    });
    return { off_turn_us, trace_turn_us, request_log_us };
  } finally {
    await logs.dispose();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const r = await benchDebug();
  console.log(`debug off, one turn's events:        ${r.off_turn_us} µs`);
  console.log(`debug on, one turn traced and logged: ${r.trace_turn_us} µs`);
  console.log(`debug on, one 100 KB request logged:  ${r.request_log_us} µs`);
}
