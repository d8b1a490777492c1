import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTiming,
  emptySummary,
  formatMs,
  formatSessionSummary,
  lastSessionSummary,
  parseSummaries,
} from "../../../core/history/debug_summary.ts";

const line = (o: unknown) =>
  `2026-01-01 10:00:00.000 +00:00 [DBG] minoc·debug·agent: summary ${JSON.stringify(o)}`;
const task = (session: string, ms: number, errors: unknown[] = []) => ({
  session,
  turns: 2,
  ms,
  outcome: "completed",
  phases: {
    model: { count: 2, totalMs: ms, maxMs: ms / 2 + 1 },
    tool: { count: 1, totalMs: 3, maxMs: 3 },
  },
  errors,
});

Deno.test("`addTiming()` counts runs, total and max of a phase", () => {
  const s = emptySummary("s1");
  addTiming(s, "tool", 2);
  addTiming(s, "tool", 5.555);
  assert.deepEqual(s.phases.tool, { count: 2, totalMs: 7.56, maxMs: 5.56 });
});

Deno.test("`formatMs()` picks milliseconds or seconds", () => {
  assert.equal(formatMs(0.1234), "0.12 ms");
  assert.equal(formatMs(12.34), "12.3 ms");
  assert.equal(formatMs(1234), "1.23 s");
});

Deno.test("`parseSummaries()` reads only summary lines and skips cut ones", () => {
  const text = [
    line(task("a", 10)),
    "… minoc·debug·agent: timing tool 1 ms",
    line(task("b", 5)).slice(0, -5),
  ]
    .join("\n");
  assert.deepEqual(parseSummaries(text).map((s) => s.session), ["a"]);
});

Deno.test("`lastSessionSummary()` sums every task of the newest session across rotated files", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_dbg_sum_" });
  try {
    assert.equal(await lastSessionSummary(dir), null);
    await Deno.writeTextFile(
      join(dir, "debug.log.1"),
      [line(task("old", 50)), line(task("new", 10))].join("\n"),
    );
    const err = { kind: "tool", message: "execute_command: exit code 1" };
    await Deno.writeTextFile(join(dir, "debug.log"), line(task("new", 20, [err])) + "\n");
    const s = (await lastSessionSummary(dir))!;
    assert.equal(s.sessionId, "new");
    assert.equal(s.tasks, 2);
    assert.equal(s.turns, 4);
    assert.equal(s.ms, 30);
    assert.deepEqual(s.phases.model, { count: 4, totalMs: 30, maxMs: 11 });
    assert.deepEqual(s.errors, [err]);
    assert.equal(
      formatSessionSummary(s),
      "Session new: 2 tasks, 4 turns, 30.0 ms (completed, completed)\n" +
        "phase  count  total    average  max\n" +
        "model      4  30.0 ms  7.50 ms  11.0 ms\n" +
        "tool       2  6.00 ms  3.00 ms  3.00 ms\n" +
        "Errors (1):\n  tool: execute_command: exit code 1\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
