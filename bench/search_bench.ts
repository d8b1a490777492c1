/**
 * Benchmark of `search_files` against ripgrep on a generated tree of 50,000
 * files (nested directories, mixed sizes, some binaries, a `.gitignore`
 * excluding a tenth of them). Aim: a content search within 2× of ripgrep.
 * ripgrep is only the yardstick: it is installed with apt-get here when
 * missing, and minoc never uses it.
 *
 * Run alone: `deno run -A bench/search_bench.ts`.
 *
 * @module
 */
import { join } from "node:path";
import type { ToolContext } from "../interfaces/tool.ts";
import { createFileTracker } from "../core/tools/file_tracker.ts";
import { realFs } from "../core/tools/fs_port.ts";
import { compileGlob } from "../core/tools/glob.ts";
import { compileQuery, searchTree } from "../core/tools/search_engine.ts";
import { searchFiles } from "../core/tools/search_files.ts";

const WORDS = (
  "const let function return import export value count index result string number await " +
  "async data config update render state props handler error message options buffer"
).split(" ");
const NEEDLE = "findNeedleHere";

/** A deterministic pseudo-random source. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

function text(rnd: () => number, size: number, needle: boolean): string {
  const lines: string[] = [];
  for (let n = 0; n < size;) {
    const parts = Array.from(
      { length: 3 + Math.floor(rnd() * 8) },
      () => WORDS[Math.floor(rnd() * WORDS.length)],
    );
    const line = "  ".repeat(Math.floor(rnd() * 3)) + parts.join(" ") + ";";
    lines.push(line);
    n += line.length + 1;
  }
  if (needle) lines.splice(Math.floor(rnd() * lines.length), 0, `  const x = ${NEEDLE}(42);`);
  return lines.join("\n") + "\n";
}

/** Writes the tree; returns how many files and bytes it holds. */
export function generateTree(root: string, total = 50_000): { files: number; bytes: number } {
  const rnd = random(42);
  Deno.mkdirSync(root, { recursive: true });
  Deno.writeTextFileSync(join(root, ".gitignore"), "build/\n*.log\n");
  const enc = new TextEncoder();
  let files = 1;
  let bytes = 0;
  for (let a = 0; files < total; a++) {
    const top = a < 10 ? `build/m${a}` : `src/p${a}`;
    for (let b = 0; b < 10 && files < total; b++) {
      const dir = join(root, top, `d${b}`);
      Deno.mkdirSync(dir, { recursive: true });
      for (let c = 0; c < 50 && files < total; c++, files++) {
        const r = rnd();
        const size = r < 0.8
          ? 100 + rnd() * 1900
          : r < 0.98
          ? 2000 + rnd() * 6000
          : 8000 + rnd() * 56000;
        let data: Uint8Array;
        let name: string;
        if (c === 7 && b % 3 === 0) {
          data = Uint8Array.from({ length: 3000 }, () => Math.floor(rnd() * 256));
          data[10] = 0;
          name = `f${c}.bin`;
        } else {
          data = enc.encode(text(rnd, size, rnd() < 0.01));
          name = `f${c}.${c % 10 === 9 ? "log" : c % 3 === 0 ? "md" : "ts"}`;
        }
        Deno.writeFileSync(join(dir, name), data);
        bytes += data.length;
      }
    }
  }
  return { files, bytes };
}

async function ensureRipgrep(): Promise<boolean> {
  const has = async () => {
    try {
      return (await new Deno.Command("rg", { args: ["--version"], stdout: "null" }).output())
        .success;
    } catch {
      return false;
    }
  };
  if (await has()) return true;
  for (const args of [["install", "-y", "ripgrep"], ["update"], ["install", "-y", "ripgrep"]]) {
    try {
      await new Deno.Command("apt-get", { args, stdout: "null", stderr: "null" }).output();
    } catch {
      return false;
    }
    if (args[0] === "install" && await has()) return true;
  }
  return false;
}

/** ripgrep's wall time and the number of files it reported. */
async function ripgrep(root: string, args: string[]): Promise<{ ms: number; files: number }> {
  const t = performance.now();
  const out = await new Deno.Command("rg", {
    args: ["--hidden", "--no-require-git", "--color", "never", ...args, root],
    stdout: "piped",
  }).output();
  const ms = performance.now() - t;
  const lines = new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "");
  return { ms, files: new Set(lines.map((l) => l.split(":")[0])).size };
}

function context(cwd: string): ToolContext {
  return {
    cwd,
    signal: new AbortController().signal,
    fs: realFs,
    files: createFileTracker(),
    env: new Map(),
    processes: {
      start: () => {
        throw new Error("Not available in the benchmark");
      },
      list: () => [],
      output: () => null,
      kill: () => Promise.resolve(false),
      killAll: () => Promise.resolve(),
    },
    ask: () => Promise.resolve(""),
  };
}

/** The tool's wall time and the number of files it reported. */
async function tool(
  ctx: ToolContext,
  args: Record<string, string>,
): Promise<{ ms: number; files: number }> {
  const t = performance.now();
  const r = await searchFiles.execute({ pattern: "*", ...args }, ctx);
  const ms = performance.now() - t;
  const m = /in ([\d,]+) files? \(|^([\d,]+) files? under/.exec(r.output);
  return { ms, files: Number((m?.[1] ?? m?.[2] ?? "0").replaceAll(",", "")) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Generates the tree, times both searchers (median of 5, interleaved), removes the tree. */
export async function benchSearch(total = 50_000): Promise<Record<string, number>> {
  const root = await Deno.makeTempDir({ prefix: "minoc_search_bench_" });
  try {
    let t = performance.now();
    const tree = generateTree(root, total);
    const result: Record<string, number> = { files: tree.files, mb: tree.bytes / 1024 / 1024 };
    result.generate_ms = performance.now() - t;
    const ctx = context(root);
    const rg = await ensureRipgrep();
    const cases: [string, Record<string, string>, string[]][] = [
      ["literal", { content: NEEDLE }, ["-n", NEEDLE]],
      ["regex", { content: "find\\w+Here\\(\\d+\\)" }, ["-n", "find\\w+Here\\(\\d+\\)"]],
      ["names", { pattern: "*.md" }, ["--files", "-g", "*.md"]],
    ];
    for (const [name, args, rgArgs] of cases) {
      await tool(ctx, args); // warm the page cache and the code
      const mine: number[] = [];
      const theirs: number[] = [];
      let agree = 1;
      for (let i = 0; i < 5; i++) {
        const a = await tool(ctx, args);
        mine.push(a.ms);
        if (!rg) continue;
        const b = await ripgrep(root, rgArgs);
        theirs.push(b.ms);
        if (a.files !== b.files) agree = 0;
      }
      result[`${name}_minoc_ms`] = median(mine);
      if (rg) {
        result[`${name}_rg_ms`] = median(theirs);
        result[`${name}_ratio`] = median(mine) / median(theirs);
        result[`${name}_same_files`] = agree;
      }
    }
    t = performance.now();
    await searchTree({
      fs: realFs,
      root,
      cwd: root,
      match: compileGlob("*"),
      query: compileQuery(NEEDLE),
      workers: false,
    });
    result.literal_single_thread_ms = performance.now() - t;
    return result;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) {
  const r = await benchSearch();
  for (const [k, v] of Object.entries(r)) {
    console.log(`${k.padEnd(28)} ${Number.isInteger(v) ? v : v.toFixed(2)}`);
  }
}
