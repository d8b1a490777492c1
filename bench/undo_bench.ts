/**
 * Benchmark of undo around shell commands (core/history/command_undo.ts):
 * before each `execute_command` the project is looked at and new or changed
 * files are copied; after it, it is looked at again. Measures the first look
 * (every file copied), a later command's two looks when nothing changed, and
 * the copies' size, in this repository and in a generated 20,000-file tree;
 * in the generated tree also the two looks of a command that rewrites one
 * file (its folder listed again, the file copied and recorded).
 *
 * Run alone: `deno run -A bench/undo_bench.ts`
 *
 * @module
 */
import { join } from "node:path";
import { type BackupStore, createBackupStore } from "../core/history/backups.ts";
import { type Before, CommandUndo } from "../core/history/command_undo.ts";
import { ROOT } from "../tests/support/cli.ts";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function generate(files: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_undo_bench_" });
  const text = "export const value = 1;\n".repeat(40); // ~1 KB, like a small source file
  for (let i = 0; i < files / 40; i++) {
    const sub = join(dir, "src", `pkg${i % 20}`, `mod${Math.floor(i / 20)}`);
    Deno.mkdirSync(sub, { recursive: true });
    for (let f = 0; f < 40; f++) Deno.writeTextFileSync(join(sub, `file${f}.ts`), text);
  }
  return dir;
}

async function mirrorMb(dir: string): Promise<number> {
  let bytes = 0;
  for await (const e of Deno.readDir(dir)) bytes += (await Deno.stat(join(dir, e.name))).size;
  return bytes / 1024 / 1024;
}

async function measure(root: string, rewrite: boolean): Promise<Record<string, number>> {
  const backups = await Deno.makeTempDir({ prefix: "minoc_undo_bench_store_" });
  try {
    const store = await createBackupStore(join(backups, "s"), "s");
    const watch = new CommandUndo({ root, store });
    let t = performance.now();
    const first = await watch.before();
    const firstMs = performance.now() - t;
    const files = [...first.paths.values()].filter((p) => !p.dir).length;
    const mb = await mirrorMb(join(store.dir, "mirror"));
    await watch.after(first);
    const later: number[] = [];
    for (let i = 0; i < 5; i++) {
      t = performance.now();
      await watch.after(await watch.before());
      later.push(performance.now() - t);
    }
    const out = { files, first_ms: firstMs, later_ms: median(later), mirror_mb: mb };
    if (rewrite) Object.assign(out, { rewrite_ms: await rewriteMs(watch, store, first) });
    await watch.dispose();
    return out;
  } finally {
    await Deno.remove(backups, { recursive: true });
  }
}

/** Median of a command's two looks when the command rewrites one file (the write not counted). */
async function rewriteMs(
  watch: CommandUndo,
  store: BackupStore,
  first: Before,
): Promise<number> {
  const file = [...first.paths].find(([, s]) => !s.dir)![0];
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    const before = await watch.before();
    let ms = performance.now() - t;
    store.beginGroup(`execute_command rewrite ${i}`);
    await Deno.writeTextFile(file, `export const value = ${i};\n`);
    t = performance.now();
    const { recorded } = await watch.after(before);
    ms += performance.now() - t;
    store.endGroup();
    if (recorded !== 1) throw new Error(`The rewrite recorded ${recorded} changes, not 1`);
    times.push(ms);
  }
  return median(times);
}

/** Runs the benchmark: this repository, then a generated 20,000-file tree. */
export async function benchUndo(): Promise<Record<string, number>> {
  const repo = await measure(ROOT, false);
  const dir = await generate(20_000);
  try {
    const big = await measure(dir, true);
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(repo)) out[`repo_${k}`] = Math.round(v * 10) / 10;
    for (const [k, v] of Object.entries(big)) out[`big_${k}`] = Math.round(v * 10) / 10;
    return out;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  for (const [name, value] of Object.entries(await benchUndo())) console.log(`${name}: ${value}`);
}
