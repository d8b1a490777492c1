/**
 * Project analysis benchmark (it runs at every session start): generated
 * trees of 1,000, 20,000 and 50,000 files, and this repository. Reports the
 * median walk and total times of five warm runs and the section's tokens,
 * plus the cost of the first run in a fresh process (tokenizer import
 * included).
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
  return dir;
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
  console.log("| tree | files | tokens | walk (ms) | warm total (ms) | cold, new process (ms) |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(
      `| ${r.tree} | ${r.files} | ${r.tokens} | ${r.scanMs.toFixed(0)} | ` +
        `${r.totalMs.toFixed(0)} | ${r.coldMs.toFixed(0)} |`,
    );
  }
}
