/**
 * `deno task bench`: runs every benchmark, prints one table, and writes
 * bench/RESULTS.md with the machine and the date.
 *
 * - end-to-end (bench/e2e_bench.ts), from source and from a fresh bundle:
 *   start-up, the 3-turn task, a 200-turn session, the turn-1 prompt size;
 * - XML parsing (bench/xml_bench.ts), security verdicts (security_bench.ts),
 *   session persistence (session_bench.ts), search_files vs ripgrep
 *   (search_bench.ts, 50,000 generated files; installs ripgrep when missing).
 *
 * `deno task bench --only e2e,xml` runs some of them and leaves RESULTS.md
 * alone. Run it on a quiet machine: the numbers are wall times.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../tests/support/cli.ts";
import { benchE2e } from "./e2e_bench.ts";
import { machine, machineText, type Row, table, writeResults } from "./report.ts";
import { benchSearch } from "./search_bench.ts";
import { benchSecurity } from "./security_bench.ts";
import { benchSessions } from "./session_bench.ts";
import { benchXml } from "./xml_bench.ts";

type Results = Record<string, number>;
const BENCHES = ["e2e", "xml", "security", "sessions", "search"] as const;
type Bench = typeof BENCHES[number];

const atMost = (n: number) => (v: number) => v <= n;
const atLeast = (n: number) => (v: number) => v >= n;

function e2eRows(src: Results, bun: Results): Row[] {
  const r = (measure: string, key: string, unit: string, aim?: string, meets?: Row["meets"]) => ({
    area: "",
    measure,
    value: src[key],
    bundle: bun[key],
    unit,
    aim,
    meets,
  });
  const flat = (x: Results) => round2(x.s200_agent_ms_at_200 / x.s200_agent_ms_at_10);
  return [
    {
      ...r("`minoc --version` (median)", "version_ms", "ms", "≤ 60", atMost(60)),
      area: "start-up",
    },
    r("`minoc --version` (fastest)", "version_min_ms", "ms"),
    r("`minoc --help` (median)", "help_ms", "ms"),
    r("start → first request of `run` (median)", "first_request_ms", "ms", "≤ 200", atMost(200)),
    r("start → first request (fastest)", "first_request_min_ms", "ms"),
    r("peak memory, 1-turn `run`", "one_turn_peak_mb", "MB", "≤ 100", atMost(100)),
    { ...r("wall time (median of 5)", "task3_wall_ms", "ms"), area: "3-turn task" },
    r("agent time per turn (median)", "task3_agent_ms_per_turn", "ms", "≤ 5", atMost(5)),
    r("agent time per turn (slowest)", "task3_agent_ms_max", "ms"),
    r("peak memory", "task3_peak_mb", "MB", "≤ 100", atMost(100)),
    { ...r("wall time", "s200_wall_ms", "ms"), area: "200-turn session" },
    r(
      "agent time per turn at turn 10 (median of 5–10)",
      "s200_agent_ms_at_10",
      "ms",
      "≤ 5",
      atMost(5),
    ),
    r("agent time per turn at turn 200 (195–200)", "s200_agent_ms_at_200", "ms", "≤ 5", atMost(5)),
    {
      ...r("turn 200 ÷ turn 10", "", "×", "≤ 1.5 (flat)", atMost(1.5)),
      value: flat(src),
      bundle: flat(bun),
    },
    r("agent time per turn, 95th percentile", "s200_agent_ms_p95", "ms"),
    r("exit after the last reply", "s200_exit_after_last_reply_ms", "ms"),
    r("peak memory", "s200_peak_mb", "MB", "≤ 100", atMost(100)),
    { ...r("turn-1 prompt (all messages)", "prompt_turn1_chars", "chars"), area: "prompt" },
    r("system prompt", "system_prompt_chars", "chars"),
  ];
}

function otherRows(all: Partial<Record<Bench, Results>>): Row[] {
  const rows: Row[] = [];
  const add = (
    area: string,
    x: Results | undefined,
    list: [string, string, string, string?, Row["meets"]?][],
  ) => {
    if (!x) return;
    list.forEach(([measure, key, unit, aim, meets], i) =>
      rows.push({ area: i === 0 ? area : "", measure, value: x[key], unit, aim, meets })
    );
  };
  add("XML parsing (1 MB reply)", all.xml, [
    ["parsed whole", "xml_whole_mb_s", "MB/s", "≥ 50", atLeast(50)],
    ["fed in 16-byte chunks", "xml_chunk16_mb_s", "MB/s", "≥ 50", atLeast(50)],
    ["fed in 1-byte chunks", "xml_chunk1_mb_s", "MB/s"],
    ["16-byte chunks ÷ whole (time)", "xml_chunk16_vs_whole", "×", "≤ 2", atMost(2)],
    ["1-byte chunks ÷ whole (time)", "xml_chunk1_vs_whole", "×", "≤ 2", atMost(2)],
  ]);
  add("security checks", all.security, [
    ["verdicts per second (corpus)", "verdicts_per_second", "/s", "≥ 1,000", atLeast(1000)],
    ["bash / PowerShell / cmd", "bash_verdicts_per_second", "/s"],
    ["latency, median", "p50_us", "µs"],
    ["latency, 99th percentile", "p99_us", "µs"],
  ]);
  if (all.security) {
    const s = all.security;
    rows.at(-3)!.value = [
      s.bash_verdicts_per_second,
      s.powershell_verdicts_per_second,
      s.cmd_verdicts_per_second,
    ]
      .map((n) => n.toLocaleString("en-US")).join(" / ");
  }
  add("session persistence (2,000 messages)", all.sessions, [
    ["tool output recorded", "content_mb", "MB"],
    ["append at message 10", "append_ms_at_10", "ms"],
    ["append at message 2,000", "append_ms_at_2000", "ms", "flat (≤ 1.5× msg 10)", undefined],
    ["whole session", "total_ms", "ms"],
  ]);
  if (all.sessions) {
    const s = all.sessions;
    rows.at(-2)!.meets = () =>
      s.append_ms_at_2000 <= Math.max(1.5 * s.append_ms_at_10, s.append_ms_at_10 + 0.5);
  }
  add("search_files vs ripgrep (50,000 files)", all.search, [
    ["content search, literal: minoc", "literal_minoc_ms", "ms"],
    ["content search, literal: ripgrep", "literal_rg_ms", "ms"],
    ["literal: minoc ÷ ripgrep", "literal_ratio", "×", "≤ 2", atMost(2)],
    ["regex: minoc ÷ ripgrep", "regex_ratio", "×", "≤ 2", atMost(2)],
    ["file names (*.md): minoc ÷ ripgrep", "names_ratio", "×"],
    ["same files found as ripgrep (1 = yes)", "literal_same_files", ""],
  ]);
  return rows;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Builds the bundle from the current source into a temp dir. */
async function freshBundle(dir: string): Promise<string> {
  const out = join(dir, "minoc.js");
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--output", out, "main.ts"],
    cwd: ROOT,
    stderr: "piped",
  }).output();
  if (r.code !== 0) throw new Error(`deno bundle failed: ${new TextDecoder().decode(r.stderr)}`);
  return out;
}

async function runAll(only: Set<Bench>): Promise<{ rows: Row[]; failures: string[] }> {
  const all: Partial<Record<Bench, Results>> = {};
  const failures: string[] = [];
  const step = async (name: Bench, fn: () => Promise<Results>) => {
    if (!only.has(name)) return;
    console.error(`== ${name}`);
    try {
      all[name] = await fn();
    } catch (e) {
      failures.push(`${name}: ${(e as Error).message}`);
    }
  };
  let bundleResults: Results = {};
  await step("e2e", async () => {
    const tmp = await Deno.makeTempDir({ prefix: "minoc_bench_bundle_" });
    try {
      const src = await benchE2e();
      console.error("== e2e (bundle)");
      bundleResults = await benchE2e({ entry: await freshBundle(tmp) });
      return src;
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  });
  await step("xml", benchXml);
  await step("security", benchSecurity);
  await step("sessions", benchSessions);
  await step("search", () => benchSearch());
  const rows = [...(all.e2e ? e2eRows(all.e2e, bundleResults) : []), ...otherRows(all)];
  return { rows, failures };
}

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { only: { type: "string" } } });
  const picked = values.only?.split(",").map((s) => s.trim()) ?? [...BENCHES];
  const unknown = picked.find((p) => !(BENCHES as readonly string[]).includes(p));
  if (unknown) {
    console.error(`Unknown benchmark "${unknown}": expected one of ${BENCHES.join(", ")}`);
    return 2;
  }
  const m = await machine();
  const { rows, failures } = await runAll(new Set(picked as Bench[]));
  const text = `${table(rows)}\n${failures.map((f) => `\nFAILED ${f}`).join("")}`;
  console.log(`\n${text}\n\n${machineText(m)}`);
  if (values.only === undefined && failures.length === 0) {
    const generated =
      `# minoc benchmark results\n\nWritten by \`deno task bench\` (bench/run.ts).\n\n` +
      `## Machine\n\n${machineText(m)}\n\n## Results\n\n${table(rows)}\n`;
    await writeResults(join(ROOT, "bench", "RESULTS.md"), generated);
    console.log("\nWrote bench/RESULTS.md");
  }
  return failures.length === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);
