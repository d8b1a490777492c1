/**
 * Benchmark of `minoc history report` over a generated history of 10,000
 * sessions and about a million messages: wall time and peak memory of the
 * whole command as a subprocess (reading, aggregating, writing the page and
 * the transcript pages), plus the sizes of the history and the report.
 *
 * Run alone: `deno run -A bench/report_bench.ts` (or `deno task bench --only report`).
 *
 * @module
 */
import { join } from "node:path";
import { ROOT } from "../tests/support/cli.ts";
import { generateHistory } from "../tests/support/history_gen.ts";
import { timedRun } from "./spawn.ts";

/** Sessions in the generated history. */
export const REPORT_SESSIONS = 10_000;

async function sizeMb(dir: string): Promise<number> {
  let bytes = 0;
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    bytes += e.isDirectory ? (await sizeMb(path)) * 1024 * 1024 : (await Deno.stat(path)).size;
  }
  return bytes / 1024 / 1024;
}

/** Generates the history, runs the report once, returns its numbers. */
export async function benchReport(
  o: { sessions?: number; entry?: string } = {},
): Promise<Record<string, number>> {
  const sessions = o.sessions ?? REPORT_SESSIONS;
  const dir = await Deno.makeTempDir({ prefix: "minoc_report_bench_" });
  try {
    const history = join(dir, ".home", ".minoc", "history");
    const t = performance.now();
    const messages = await generateHistory({
      sessionsDir: join(history, "sessions"),
      backupsDir: join(history, "backups"),
      sessions,
      messages: 100,
    });
    console.error(`generated ${messages} messages in ${Math.round(performance.now() - t)} ms`);
    const run = await timedRun(["history", "report", "-o", "report.html"], {
      entry: o.entry ?? join(ROOT, "main.ts"),
      cwd: dir,
      pollMs: 20,
    });
    if (run.code !== 0) throw new Error(`history report failed: ${run.stderr}`);
    return {
      sessions,
      messages,
      history_mb: Math.round(await sizeMb(join(history, "sessions"))),
      report_ms: Math.round(run.wallMs),
      report_peak_mb: Math.round(run.peakMb),
      report_mb: Math.round((await Deno.stat(join(dir, "report.html"))).size / 1024 / 102.4) / 10,
      pages_mb: Math.round(await sizeMb(join(dir, "report.sessions")) * 10) / 10,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const n = Deno.args[0] ? Number(Deno.args[0]) : undefined;
  console.log(await benchReport({ sessions: n }));
}
