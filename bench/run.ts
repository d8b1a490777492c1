/**
 * `deno task bench`: runs every benchmark, prints one table, and writes
 * bench/RESULTS.md with the machine and the date.
 *
 * - end-to-end (bench/e2e_bench.ts), from source and from a fresh bundle:
 *   start-up, the 3-turn task, a 200-turn session, the turn-1 prompt size;
 * - a 50 MB reply: peak memory and session size (bench/huge_reply_bench.ts);
 * - XML parsing (bench/xml_bench.ts), security verdicts (security_bench.ts),
 *   session persistence (session_bench.ts), debug mode's cost (debug_bench.ts),
 *   project analysis (project_bench.ts), search_files vs ripgrep
 *   (search_bench.ts, 50,000 generated files; installs ripgrep when missing),
 *   undo around shell commands (undo_bench.ts), the start with nothing
 *   configured: looking for local servers (first_start_bench.ts), the
 *   report of a 10,000-session history (report_bench.ts), the commands'
 *   sandbox (sandbox_bench.ts), session start with three MCP servers
 *   (mcp_bench.ts), the turn-1 prompt with three MCP servers and ten skills
 *   (prompt_bench.ts).
 *
 * `deno task bench --only e2e,xml` runs some of them and leaves RESULTS.md
 * alone. Run it on a quiet machine: the numbers are wall times.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildBundle } from "../.ci/bundle.ts";
import { ROOT } from "../tests/support/cli.ts";
import { benchHugeReply } from "./huge_reply_bench.ts";
import { benchDebug } from "./debug_bench.ts";
import { benchE2e } from "./e2e_bench.ts";
import { benchFirstStart } from "./first_start_bench.ts";
import { benchProject } from "./project_bench.ts";
import { benchReport } from "./report_bench.ts";
import { machine, machineText, type Row, table, writeResults } from "./report.ts";
import { regressions } from "./regress.ts";
import { type AllResults, otherRows } from "./rows.ts";
import { e2eRows } from "./rows_e2e.ts";
import { loadMeter, loadText } from "./busy.ts";
import { benchSearch } from "./search_bench.ts";
import { benchSecurity } from "./security_bench.ts";
import { benchHistory, benchSessions } from "./session_bench.ts";
import { benchUndo } from "./undo_bench.ts";
import { benchSandbox } from "./sandbox_bench.ts";
import { benchMcp } from "./mcp_bench.ts";
import { benchPrompt } from "./prompt_bench.ts";
import { benchXml } from "./xml_bench.ts";

const BENCHES = [
  "e2e",
  "xml",
  "huge",
  "security",
  "sessions",
  "search",
  "debug",
  "project",
  "undo",
  "firststart",
  "report",
  "sandbox",
  "mcp",
  "prompt",
] as const;
type Bench = typeof BENCHES[number];

/** Builds the bundle as shipped (.ci/bundle.ts) from the current source into a temp dir. */
async function freshBundle(dir: string): Promise<string> {
  const out = join(dir, "minoc.js");
  await buildBundle(out);
  return out;
}

async function runAll(only: Set<Bench>): Promise<{ rows: Row[]; failures: string[] }> {
  const all: AllResults = { loads: {} };
  const failures: string[] = [];
  const step = async <K extends Bench>(name: K, fn: () => Promise<AllResults[K]>) => {
    if (!only.has(name)) return;
    console.error(`== ${name}`);
    try {
      const load = loadMeter();
      all[name] = await fn();
      all.loads![name] = loadText(load());
    } catch (e) {
      failures.push(`${name}: ${(e as Error).message}`);
    }
  };
  // The end-to-end numbers come first, while nothing else has warmed or loaded the machine.
  await step("e2e", async () => {
    const tmp = await Deno.makeTempDir({ prefix: "minoc_bench_bundle_" });
    try {
      const src = await benchE2e();
      console.error("== e2e (bundle)");
      all.e2eBundle = await benchE2e({ entry: await freshBundle(tmp) });
      return src;
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  });
  await step("xml", benchXml);
  await step("huge", () => benchHugeReply());
  await step("security", benchSecurity);
  await step("sessions", async () => ({ ...await benchSessions(), ...await benchHistory() }));
  await step("debug", benchDebug);
  await step("project", benchProject);
  await step("undo", benchUndo);
  await step("firststart", () => benchFirstStart());
  await step("report", () => benchReport());
  await step("sandbox", benchSandbox);
  await step("mcp", () => benchMcp());
  await step("prompt", () => benchPrompt());
  await step("search", () => benchSearch());
  const rows = [...(all.e2e ? e2eRows(all.e2e, all.e2eBundle ?? {}) : []), ...otherRows(all)];
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
  const resultsPath = join(ROOT, "bench", "RESULTS.md");
  const worse = regressions(await Deno.readTextFile(resultsPath).catch(() => ""), rows);
  const callout = `## Regressions of more than 20% since the previous RESULTS.md\n\n` +
    (worse.length === 0 ? "None.\n" : `${worse.join("\n")}\n`);
  console.log(`\n${callout}`);
  if (values.only === undefined && failures.length === 0) {
    const generated =
      `# minoc benchmark results\n\nWritten by \`deno task bench\` (bench/run.ts).\n\n` +
      `## Machine\n\n${machineText(m)}\n\n## Results\n\n${table(rows)}\n\n${callout}`;
    await writeResults(resultsPath, generated);
    console.log("\nWrote bench/RESULTS.md");
  }
  return failures.length === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);
