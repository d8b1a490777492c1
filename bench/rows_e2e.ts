/**
 * The end-to-end rows of the benchmark table (`e2e_bench.ts`): from source
 * and from the bundle side by side, each part with the machine's load.
 *
 * @module
 */
import type { Row } from "./report.ts";
import { atMost, loadRow, type Results } from "./rows.ts";
import { type Load, loadText } from "./busy.ts";

/** The end-to-end rows: from source and from the bundle side by side. */
export function e2eRows(src: Results, bun: Results): Row[] {
  const r = (measure: string, key: string, unit: string, aim?: string, meets?: Row["meets"]) => ({
    area: "",
    measure,
    value: src[key],
    bundle: bun[key],
    unit,
    aim,
    meets,
  });
  const flat = (x: Results) => round2(x.s200_agent_ms_late / x.s200_agent_ms_early);
  const load = (part: string) => loadRow(partLoad(src, part), partLoad(bun, part));
  return [
    { ...r("Deno's hello-world start, same run (median)", "hello_ms", "ms"), area: "start-up" },
    r("`minoc --version` (median)", "version_ms", "ms"),
    r("`minoc --version` ÷ hello-world", "version_x_hello", "×", "≤ 4", atMost(4)),
    r("`minoc --version` (fastest)", "version_min_ms", "ms"),
    r("`minoc --help` (median)", "help_ms", "ms"),
    r("`minoc --version`, a new bundle's first start (unpacks)", "first_start_version_ms", "ms"),
    r("peak memory, that first start", "first_start_peak_mb", "MB"),
    r("start → first request of `run` (median)", "first_request_ms", "ms"),
    r("start → first request ÷ hello-world", "first_request_x_hello", "×", "≤ 8", atMost(8)),
    r("start → first request (fastest)", "first_request_min_ms", "ms"),
    r("peak memory, 1-turn `run`", "one_turn_peak_mb", "MB", "≤ 100", atMost(100)),
    r(
      "start → first request, in this repository (median)",
      "repo_first_request_ms",
      "ms",
      "≤ 200",
      atMost(200),
    ),
    r(
      "peak memory, 1-turn `run` in this repository",
      "repo_one_turn_peak_mb",
      "MB",
      "≤ 100",
      atMost(100),
    ),
    ...load("startup"),
    { ...r("wall time (median of 5)", "task3_wall_ms", "ms"), area: "3-turn task" },
    r("agent time per turn (median)", "task3_agent_ms_per_turn", "ms", "≤ 5", atMost(5)),
    r("agent time per turn (slowest)", "task3_agent_ms_max", "ms"),
    r(
      "agent time per turn, model answering after 100 ms (median)",
      "task3_thinking_agent_ms_per_turn",
      "ms",
    ),
    r("peak memory", "task3_peak_mb", "MB", "≤ 80", atMost(80)),
    ...load("task3"),
    { ...r("wall time", "s200_wall_ms", "ms"), area: "200-turn session" },
    r("agent time per turn (median of all)", "s200_agent_ms_median", "ms", "≤ 5", atMost(5)),
    r("agent time per turn, turns 2–21 (median)", "s200_agent_ms_early", "ms", "≤ 5", atMost(5)),
    r("agent time per turn, turns 181–200 (median)", "s200_agent_ms_late", "ms", "≤ 5", atMost(5)),
    {
      ...r("turns 181–200 ÷ turns 2–21", "", "×", "≤ 1.5 (flat)", atMost(1.5)),
      value: flat(src),
      bundle: flat(bun),
    },
    r("agent time per turn, 95th percentile", "s200_agent_ms_p95", "ms"),
    r("exit after the last reply", "s200_exit_after_last_reply_ms", "ms"),
    r("peak memory", "s200_peak_mb", "MB", "≤ 110", atMost(110)),
    r(
      "peak memory, turns 101–200 minus turns 1–100",
      "s200_peak_late_minus_early_mb",
      "MB",
      "≤ 8 (flat)",
      atMost(8),
    ),
    ...load("s200"),
    r(
      "agent time per turn, every core kept busy by a spinning process (median)",
      "s200_busy_agent_ms_median",
      "ms",
      "≤ 5",
      atMost(5),
    ),
    r("the same, turns 181–200 (median)", "s200_busy_agent_ms_late", "ms", "≤ 5", atMost(5)),
    ...load("busy"),
    {
      ...r("turn-1 prompt (all messages; no MCP server, no skill)", "prompt_turn1_chars", "chars"),
      area: "prompt",
      aim: "≤ 6,000",
      meets: atMost(6000),
    },
    r("system prompt", "system_prompt_chars", "chars"),
  ];
}

/** The load of one part of the run, as the rows show it. */
function partLoad(x: Results, part: string): string | undefined {
  const avg = x[`load_${part}_avg`];
  if (avg === undefined) return undefined;
  const load: Load = { busyPct: x[`load_${part}_busy_pct`] ?? -1, avg };
  return loadText(load);
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
