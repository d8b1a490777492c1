/**
 * The rows of the benchmark table: each benchmark's numbers with their
 * measures, units and aims.
 *
 * @module
 */
import type { ProjectBenchRow } from "./project_bench.ts";
import type { Row } from "./report.ts";
import { BENCH_DIALECTS } from "./xml_dialects.ts";

/** One benchmark's numbers, by key. */
export type Results = Record<string, number>;

/** Every benchmark's results that ran. */
export interface AllResults {
  e2e?: Results;
  /** The end-to-end numbers of the bundle. */
  e2eBundle?: Results;
  xml?: Results;
  security?: Results;
  sessions?: Results;
  /** A 50 MB reply (huge_reply_bench.ts). */
  huge?: Results;
  search?: Results;
  debug?: Results;
  project?: ProjectBenchRow[];
  undo?: Results;
  /** Start with nothing configured: the local-server probe (first_start_bench.ts). */
  firststart?: Results;
  report?: Results;
  sandbox?: Results;
  mcp?: Results;
  /** The turn-1 prompt with three MCP servers and ten skills (prompt_bench.ts). */
  prompt?: Results;
  /** The machine's load over each benchmark, by its name (`busy.ts`). */
  loads?: Record<string, string>;
}

/** A result's key, or how to compute the shown value from the results. */
type Key = string | ((x: Results) => number | string);

export const atMost = (n: number) => (v: number) => v <= n;
const atLeast = (n: number) => (v: number) => v >= n;

/** The row that states the machine's load beside a benchmark's figures (`busy.ts`). */
export function loadRow(load: string | undefined, bundle?: string): Row[] {
  if (load === undefined) return [];
  const measure = "machine's load over these rows: cores busy (1-minute load average at the end)";
  return [{ area: "", measure, value: load, bundle, unit: "" }];
}

/** The rows of the in-process benchmarks that ran. */
export function otherRows(all: AllResults): Row[] {
  const rows: Row[] = [];
  const loads = all.loads ?? {};
  const add = (
    area: string,
    x: Results | undefined,
    list: [string, Key, string, string?, Row["meets"]?][],
    bench?: string,
  ) => {
    if (!x) return;
    list.forEach(([measure, key, unit, aim, meets], i) => {
      const value = typeof key === "function" ? key(x) : x[key];
      rows.push({ area: i === 0 ? area : "", measure, value, unit, aim, meets });
    });
    rows.push(...loadRow(bench === undefined ? undefined : loads[bench]));
  };
  add("XML parsing (1 MB reply)", all.xml, [
    ["parsed whole", "xml_whole_mb_s", "MB/s", "≥ 50", atLeast(50)],
    ["fed in 16-byte chunks", "xml_chunk16_mb_s", "MB/s", "≥ 50", atLeast(50)],
    ["fed in 1-byte chunks", "xml_chunk1_mb_s", "MB/s"],
    ["16-byte chunks ÷ whole (time)", "xml_chunk16_vs_whole", "×", "≤ 2", atMost(2)],
    ["1-byte chunks ÷ whole (time)", "xml_chunk1_vs_whole", "×"],
    ["hermes_json (Qwen3 JSON), whole", "xml_hermes_whole_mb_s", "MB/s", "≥ 50", atLeast(50)],
    ["hermes_json, 16-byte chunks", "xml_hermes_chunk16_mb_s", "MB/s", "≥ 50", atLeast(50)],
    ["qwen3_coder, whole", "xml_coder_whole_mb_s", "MB/s", "≥ 50", atLeast(50)],
    ["qwen3_coder, 16-byte chunks", "xml_coder_chunk16_mb_s", "MB/s", "≥ 50", atLeast(50)],
    ["1 MB <think> then a call, whole", "xml_think_whole_mb_s", "MB/s", "≥ 50", atLeast(50)],
    ["1 MB <think>, 16-byte chunks", "xml_think_chunk16_mb_s", "MB/s", "≥ 50", atLeast(50)],
    ["1 MB of unfinished openers, whole", "xml_junk_whole_mb_s", "MB/s", "≥ 50", atLeast(50)],
    ["unfinished openers, 16-byte chunks", "xml_junk_chunk16_mb_s", "MB/s", "≥ 50", atLeast(50)],
    ...BENCH_DIALECTS.map((d): [string, Key, string, string, Row["meets"]] => [
      `${d}, 16-byte chunks ÷ whole (time)`,
      `xml_d_${d}_chunk16_vs_whole`,
      "×",
      "≤ 2",
      atMost(2),
    ]),
  ], "xml");
  add("security checks", all.security, [
    ["verdicts per second (corpus)", "verdicts_per_second", "/s", "≥ 1,000", atLeast(1000)],
    ["bash / PowerShell / cmd", perShell, "/s"],
    ["latency, median", "p50_us", "µs"],
    ["latency, 99th percentile", "p99_us", "µs"],
  ], "security");
  add("a 50 MB reply (cut at 1,000,000 characters)", all.huge, [
    ["peak memory of `run`", "huge_reply_peak_mb", "MB", "≤ 250", atMost(250)],
    ["session file", "huge_reply_session_mb", "MB", "≤ 2", atMost(2)],
  ], "huge");
  add("session persistence (2,000 messages)", all.sessions, [
    ["tool output recorded", "content_mb", "MB"],
    ["append at message 10", "append_ms_at_10", "ms"],
    ["append at message 2,000", "append_ms_at_2000", "ms"],
    [
      "message 2,000 ÷ message 10",
      (x) => round2(x.append_ms_at_2000 / x.append_ms_at_10),
      "×",
      "≤ 1.5 (flat)",
      atMost(1.5),
    ],
    ["whole session", "total_ms", "ms"],
  ]);
  add("session start over a history (300 sessions)", all.sessions, [
    ["size of the history", "history_mb", "MB"],
    ["crash check of every file", "repair_check_ms", "ms"],
    ["listing this project's 30 sessions", "list_project_ms", "ms"],
    ["listing all 300 sessions", "list_all_ms", "ms"],
  ], "sessions");
  add("search_files vs ripgrep (50,000 files)", all.search, [
    ["content search, literal: minoc", "literal_minoc_ms", "ms"],
    ["content search, literal: ripgrep", "literal_rg_ms", "ms"],
    ["literal: minoc ÷ ripgrep", "literal_ratio", "×", "≤ 2", atMost(2)],
    ["regex: minoc ÷ ripgrep", "regex_ratio", "×", "≤ 2", atMost(2)],
    ["file names (*.md): minoc ÷ ripgrep", "names_ratio", "×"],
    ["same files found as ripgrep (1 = yes)", "literal_same_files", ""],
  ], "search");
  add("debug mode's own cost", all.debug, [
    ["one turn's events, debug off", "off_turn_us", "µs"],
    ["one turn traced and logged", "trace_turn_us", "µs", "< 1,000", atMost(1000)],
    ["one 100 KB request logged", "request_log_us", "µs"],
  ], "debug");
  add("undo around a shell command", all.undo, [
    ["this repository: files kept", "repo_files", ""],
    ["this repository: first look (copies every file)", "repo_first_ms", "ms"],
    ["this repository: a later command's two looks", "repo_later_ms", "ms"],
    ["20,000 files: first look (copies every file)", "big_first_ms", "ms"],
    ["20,000 files: a later command's two looks", "big_later_ms", "ms", "≤ 50", atMost(50)],
    [
      "20,000 files: two looks of a command that rewrites a file",
      "big_rewrite_ms",
      "ms",
      "≤ 50",
      atMost(50),
    ],
    ["20,000 files: size of the copies", "big_mirror_mb", "MB"],
  ], "undo");
  add("start with nothing configured (chat → first prompt)", all.firststart, [
    ["no discovery (MINOC_DISCOVER_PORTS=none)", "first_prompt_off_ms", "ms"],
    ["nothing listening on 6 probed ports", "first_prompt_nothing_ms", "ms"],
    ["probe's cost, nothing listening", "probe_nothing_ms", "ms", "≤ 300", atMost(300)],
    ["probe's cost, a server that never answers", "probe_silent_ms", "ms", "≤ 300 + noise"],
  ], "firststart");
  add("history report (10,000 sessions, ~1M messages)", all.report, [
    ["size of the history", "history_mb", "MB"],
    ["`minoc history report`, whole command", "report_ms", "ms", "≤ 60,000", atMost(60_000)],
    ["peak memory", "report_peak_mb", "MB", "≤ 300 (bounded)", atMost(300)],
    ["the report page (50 transcripts inside)", "report_mb", "MB"],
    ["500 transcript pages beside it", "pages_mb", "MB"],
  ], "report");
  add("commands' sandbox (Landlock)", all.sandbox, [
    ["`bash -c true` unconfined (median)", "plain_ms", "ms"],
    ["`bash -c true` confined (median)", "worker_ms", "ms"],
    ["sandbox's cost per command", "worker_cost_ms", "ms", "≤ 5", atMost(5)],
    ["cost with the helper process (no FFI)", "helper_cost_ms", "ms"],
    ["probe at session start (in the background)", "open_ms", "ms"],
    ["a session's first confined command", "first_ms", "ms"],
  ], "sandbox");
  add("session start with three MCP servers", all.mcp, [
    ["start → first request, no server", "first_request_none_ms", "ms"],
    [
      "start → first request, three servers",
      "first_request_three_ms",
      "ms",
      "≤ no server + 100",
      (v) => v <= all.mcp!.first_request_none_ms + 100,
    ],
    [
      "one-turn `run`, no server / three (stopped at the end)",
      (x) => `${x.run_wall_none_ms} / ${x.run_wall_three_ms}`,
      "ms",
    ],
    ["all three started, tools listed", "all_ready_ms", "ms"],
    ["system prompt added by their 34 tools", "prompt_added_chars", "chars"],
  ], "mcp");
  add("turn-1 prompt, three MCP servers (34 tools) and ten skills", all.prompt, [
    ["all messages, nothing configured", "prompt_none_chars", "chars"],
    [
      "all messages, three servers and ten skills",
      "prompt_full_chars",
      "chars",
      "≤ 6,000",
      atMost(6000),
    ],
    ["of which the tools and their rules", "prompt_tools_chars", "chars"],
    ["of which the skill index", "prompt_skills_chars", "chars"],
    ["of which the MCP tool list", "prompt_mcp_chars", "chars"],
  ], "prompt");
  (all.project ?? []).forEach((p, i) =>
    rows.push({
      area: i === 0 ? "project analysis (session start)" : "",
      measure: `${p.tree} (${p.files.toLocaleString("en-US")} files, ${p.tokens} tokens): ` +
        "warm / new process / kept from the last session",
      value: `${Math.round(p.totalMs)} / ${Math.round(p.coldMs)} / ${p.keptMs.toFixed(1)}`,
      unit: "ms",
    })
  );
  if (all.project !== undefined) rows.push(...loadRow(loads.project));
  return rows;
}

function perShell(x: Results): string {
  const shells = [
    x.bash_verdicts_per_second,
    x.powershell_verdicts_per_second,
    x.cmd_verdicts_per_second,
  ];
  return shells.map((n) => n.toLocaleString("en-US")).join(" / ");
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
