/**
 * Project analysis benchmark (it runs at every session start): generated
 * trees of 1,000, 20,000 and 50,000 files, and this repository. Reports the
 * median walk and total times of five warm runs and the section's tokens,
 * the cost of the first run in a fresh process (module loading included),
 * and the median of five analyses that find the last session's kept
 * (`core/agent/project_cache.ts`: one `stat` per folder and file read). The
 * generated trees' times are set a minute back, as in a project nobody
 * changed in the last seconds (newer times are not trusted).
 *
 * Run alone: `deno run -A bench/project_bench.ts`
 *
 * @module
 */
import { join } from "node:path";
import { analyzeProject } from "../core/agent/project.ts";
import { ROOT } from "../tests/support/cli.ts";

/** One measured tree. */
export interface ProjectBenchRow {
  tree: string;
  files: number;
  tokens: number;
  scanMs: number;
  totalMs: number;
  coldMs: number;
  /** Median total of an analysis that takes the last one's kept facts. */
  keptMs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function generate(files: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_project_bench_" });
  await Deno.writeTextFile(join(dir, "package.json"), '{"scripts":{"test":"vitest"}}');
  const perDir = 40;
  for (let i = 0; i < files / perDir; i++) {
    const sub = join(dir, "src", `pkg${i % 20}`, `mod${Math.floor(i / 20)}`);
    Deno.mkdirSync(sub, { recursive: true });
    for (let f = 0; f < perDir; f++) Deno.writeTextFileSync(join(sub, `file${f}.ts`), "");
  }
  age(dir, new Date(Date.now() - 60_000));
  return dir;
}

/** Sets the times of `dir` and everything below it to `when`. */
function age(dir: string, when: Date): void {
  for (const e of Deno.readDirSync(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) age(path, when);
    else Deno.utimeSync(path, when, when);
  }
  Deno.utimeSync(dir, when, when);
}

/** Median total of five analyses that find the facts kept by a first one. */
async function kept(dir: string): Promise<number> {
  const cacheDir = await Deno.makeTempDir({ prefix: "minoc_project_kept_" });
  try {
    await analyzeProject(dir, { timeBudgetMs: 60_000, cacheDir });
    const totals: number[] = [];
    for (let i = 0; i < 5; i++) {
      const p = await analyzeProject(dir, { timeBudgetMs: 60_000, cacheDir });
      if (!p.kept) throw new Error(`The analysis of ${dir} was not kept`);
      totals.push(p.ms.total);
    }
    return median(totals);
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
}

/** First analysis in a new process: module loading and the tokenizer import included. */
async function cold(dir: string): Promise<number> {
  const code = `const t = performance.now();
const { analyzeProject } = await import(${JSON.stringify(join(ROOT, "core/agent/project.ts"))});
await analyzeProject(${JSON.stringify(dir)}, { timeBudgetMs: 60_000 });
console.log(performance.now() - t);`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--config", join(ROOT, "deno.json"), code],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return Number(new TextDecoder().decode(out.stdout).trim());
}

async function measure(tree: string, dir: string): Promise<ProjectBenchRow> {
  const coldMs = await cold(dir);
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await analyzeProject(dir, { timeBudgetMs: 60_000 }));
  const last = runs.at(-1)!;
  return {
    tree,
    files: last.facts.root.files,
    tokens: last.tokens,
    scanMs: median(runs.map((r) => r.ms.scan)),
    totalMs: median(runs.map((r) => r.ms.total)),
    coldMs,
    keptMs: await kept(dir),
  };
}

/** Runs the benchmark and returns one row per tree. */
export async function benchProject(): Promise<ProjectBenchRow[]> {
  const rows = [await measure("this repository", ROOT)];
  for (const n of [1_000, 20_000, 50_000]) {
    const dir = await generate(n);
    try {
      rows.push(await measure(`generated, ${n.toLocaleString("en-US")} files`, dir));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  return rows;
}

if (import.meta.main) {
  const rows = await benchProject();
  console.log("| tree | files | tokens | walk | warm total | new process | kept (ms) |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(
      `| ${r.tree} | ${r.files} | ${r.tokens} | ${r.scanMs.toFixed(0)} | ` +
        `${r.totalMs.toFixed(0)} | ${r.coldMs.toFixed(0)} | ${r.keptMs.toFixed(1)} |`,
    );
  }
}
