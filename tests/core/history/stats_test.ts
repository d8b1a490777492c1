import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadSessions } from "../../../core/history/lookup.ts";
import { computeStats, formatStats, percentile } from "../../../core/history/stats.ts";

/** Three hand-written sessions: A, B (/fixture/alpha, qwen-7b) and C (/fixture/beta, llama-3-8b). */
const FIXTURES = fileURLToPath(new URL("../../fixtures/history/sessions", import.meta.url));

function fail(message: string): never {
  throw new Error(message);
}

Deno.test("`computeStats()` counts each tool's calls by outcome on the fixture history", async () => {
  const stats = computeStats(await loadSessions(FIXTURES, {}, fail));
  // Worked out by hand from the three fixture files.
  assert.deepEqual(stats.tools, [
    {
      tool: "attempt_completion",
      calls: 1,
      approved: 1,
      denied: 0,
      blocked: 0,
      invalid: 0,
      errors: 0,
      meanMs: 0.5,
      p95Ms: 0.5,
    },
    {
      tool: "execute_command",
      calls: 2,
      approved: 0,
      denied: 1,
      blocked: 1,
      invalid: 0,
      errors: 0,
      meanMs: null,
      p95Ms: null,
    },
    {
      tool: "list_files",
      calls: 1,
      approved: 1,
      denied: 0,
      blocked: 0,
      invalid: 0,
      errors: 0,
      meanMs: 20,
      p95Ms: 20,
    },
    // read_file: A ok 10 ms, B invalid, B not_found 30 ms, C ok 50 ms.
    {
      tool: "read_file",
      calls: 4,
      approved: 3,
      denied: 0,
      blocked: 0,
      invalid: 1,
      errors: 1,
      meanMs: 30,
      p95Ms: 50,
    },
    {
      tool: "write_to_file",
      calls: 1,
      approved: 1,
      denied: 0,
      blocked: 0,
      invalid: 0,
      errors: 0,
      meanMs: 4,
      p95Ms: 4,
    },
  ]);
});

Deno.test("`computeStats()` gives per-session and per-model totals with parse errors by kind", async () => {
  const stats = computeStats(await loadSessions(FIXTURES, {}, fail));
  assert.deepEqual(
    stats.sessions.map((
      s,
    ) => [s.id.slice(-6), s.turns, s.totalTokens, s.durationMs, s.toolCalls, s.parseErrors]),
    [
      ["aaaaaa", 5, 6087, 60000, 4, 1],
      ["bbbbbb", 4, 2640, 30000, 3, 1],
      ["cccccc", 5, 2135, 12000, 2, 2],
    ],
  );
  assert.deepEqual(stats.models, [
    {
      model: "llama-3-8b",
      sessions: 1,
      turns: 5,
      totalTokens: 2135,
      toolCalls: 2,
      parseErrors: 2,
      parseErrorKinds: { unknown_tool: 1, multiple_tool_calls: 1 },
    },
    {
      model: "qwen-7b",
      sessions: 2,
      turns: 9,
      totalTokens: 8727,
      toolCalls: 7,
      parseErrors: 2,
      parseErrorKinds: { unclosed: 1, invalid_args: 1 },
    },
  ]);
});

Deno.test("`computeStats()` honours the project and since filters of `loadSessions()`", async () => {
  const alpha = computeStats(await loadSessions(FIXTURES, { projectPath: "/fixture/alpha" }, fail));
  assert.deepEqual(alpha.sessions.map((s) => s.id.slice(-6)), ["aaaaaa", "bbbbbb"]);
  const since = computeStats(
    await loadSessions(FIXTURES, { since: new Date("2026-01-10T00:00:00Z") }, fail),
  );
  assert.deepEqual(since.sessions.map((s) => s.id.slice(-6)), ["bbbbbb", "cccccc"]);
  assert.equal(since.tools.find((t) => t.tool === "read_file")?.calls, 3);
});

Deno.test("`percentile()` uses the nearest rank", () => {
  const oneToTwenty = Array.from({ length: 20 }, (_, i) => i + 1);
  assert.equal(percentile(oneToTwenty, 95), 19);
  assert.equal(percentile(oneToTwenty, 50), 10);
  assert.equal(percentile([7], 95), 7);
  assert.equal(percentile([1, 2, 3], 95), 3);
});

Deno.test("`formatStats()` prints three aligned tables", async () => {
  const text = formatStats(computeStats(await loadSessions(FIXTURES, {}, fail)));
  const lines = text.split("\n");
  assert.equal(lines[0], "Tools");
  assert.equal(
    lines[1],
    "tool                calls  approved  denied  blocked  invalid  errors  mean ms  p95 ms",
  );
  assert.equal(
    lines.find((l) => l.startsWith("read_file")),
    "read_file               4         3       0        0        1       1       30      50",
  );
  assert.equal(
    lines.find((l) => l.startsWith("execute_command")),
    "execute_command         2         0       1        1        0       0        -       -",
  );
  assert.ok(lines.includes("Sessions") && lines.includes("Models"));
  assert.match(text, /\nqwen-7b +2 +9 +8727 +7 +2 {2}invalid_args 1, unclosed 1\n/);
  assert.equal(formatStats(computeStats([])), "No sessions\n");
});
