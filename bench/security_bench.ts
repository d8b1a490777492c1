/**
 * Benchmark of the security gate: verdicts per second over the test corpus
 * (hundreds of bash, PowerShell and cmd commands) after a warm-up pass.
 *
 * Run alone: `deno run --allow-read bench/security_bench.ts`.
 *
 * @module
 */
import { checkCommand, type ShellKind } from "../core/permission/security.ts";

interface Case {
  command: string;
  shell: ShellKind;
}

const CORPUS = ["bash.jsonl", "windows.jsonl"].map((f) =>
  new URL(`../tests/fixtures/security/${f}`, import.meta.url)
);

async function loadCorpus(): Promise<Case[]> {
  const cases: Case[] = [];
  for (const url of CORPUS) {
    for (const line of (await Deno.readTextFile(url)).split("\n")) {
      if (line.trim()) cases.push(JSON.parse(line) as Case);
    }
  }
  return cases;
}

function where(shell: ShellKind) {
  return shell === "bash"
    ? { cwd: "/home/dev/project", home: "/home/dev" }
    : { cwd: "C:\\Users\\dev\\project", home: "C:\\Users\\dev" };
}

/** Verdicts per second for `cases`, measured for at least `ms` milliseconds; also latencies in µs. */
async function measure(
  cases: Case[],
  ms: number,
): Promise<{ perSecond: number; latencies: number[] }> {
  const latencies: number[] = [];
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (const c of cases) {
      const t = performance.now();
      await checkCommand(c.command, { shell: c.shell, ...where(c.shell) });
      latencies.push((performance.now() - t) * 1000);
    }
  }
  return { perSecond: latencies.length / ((performance.now() - start) / 1000), latencies };
}

/**
 * Runs the benchmark and returns its numbers: overall and per-shell
 * verdicts per second, and latency percentiles in microseconds.
 *
 * @example
 * ```ts
 * const r = await benchSecurity();
 * r.verdicts_per_second > 1000; // the target
 * ```
 */
export async function benchSecurity(): Promise<Record<string, number>> {
  const cases = await loadCorpus();
  for (const c of cases) await checkCommand(c.command, { shell: c.shell, ...where(c.shell) });
  const all = await measure(cases, 1500);
  const sorted = [...all.latencies].sort((a, b) => a - b);
  const pct = (p: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]);
  const result: Record<string, number> = {
    corpus_commands: cases.length,
    verdicts_per_second: Math.round(all.perSecond),
    p50_us: pct(0.5),
    p99_us: pct(0.99),
    max_us: Math.round(sorted[sorted.length - 1]),
  };
  for (const shell of ["bash", "powershell", "cmd"] as const) {
    const subset = cases.filter((c) => c.shell === shell);
    result[`${shell}_verdicts_per_second`] = Math.round((await measure(subset, 400)).perSecond);
  }
  return result;
}

if (import.meta.main) {
  const r = await benchSecurity();
  for (const [k, v] of Object.entries(r)) console.log(`${k.padEnd(34)} ${v}`);
  console.log(
    r.verdicts_per_second >= 1000
      ? "ok: at least 1,000 verdicts/s"
      : "SLOW: below 1,000 verdicts/s",
  );
}
