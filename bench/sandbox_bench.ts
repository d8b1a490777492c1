/**
 * Benchmark of the commands' sandbox (core/sandbox/): what confinement adds
 * to starting a command. Runs `bash -c true` to its end many times,
 * unconfined and through each confined spawner (the Landlock worker thread,
 * and the `__confine` helper process used when minoc runs without FFI),
 * and reports medians and the difference. Also times opening a session's
 * sandbox (in the background, once per session) and the session's first
 * confined command, which makes the worker.
 *
 * Run alone: `deno run -A bench/sandbox_bench.ts`
 *
 * @module
 */
import type { CommandSpawner } from "../interfaces/tool.ts";
import { confinement } from "../core/sandbox/confine.ts";
import { landlockAbi } from "../core/sandbox/landlock.ts";
import { openSandbox } from "../core/sandbox/session.ts";
import { spawnShell } from "../core/tools/shell.ts";

const RUNS = 40;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** One run of `bash -c true` to its end: start, read its output, see it exit (ms). */
async function once(cwd: string, spawner: CommandSpawner | null): Promise<number> {
  const t = performance.now();
  const child = spawnShell("true", { cwd, env: Deno.env.toObject(), spawner });
  const drain = (s: ReadableStream<Uint8Array>) => new Response(s).arrayBuffer();
  await Promise.all([child.status, drain(child.stdout), drain(child.stderr)]);
  return performance.now() - t;
}

/** Median ms per spawner, the spawners taking turns so that load hits them alike. */
async function timeCommands(
  cwd: string,
  spawners: (CommandSpawner | null)[],
): Promise<number[]> {
  const times = spawners.map(() => [] as number[]);
  for (let i = 0; i < RUNS + 3; i++) {
    for (const [k, s] of spawners.entries()) {
      const ms = await once(cwd, s);
      if (i >= 3) times[k].push(ms); // the first runs warm up
    }
  }
  return times.map(median);
}

/** Runs the benchmark (Linux with Landlock only; elsewhere an empty result). */
export async function benchSandbox(): Promise<Record<string, number>> {
  if (Deno.build.os !== "linux" || landlockAbi() === 0) return {};
  const cwd = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_sandbox_bench_" }));
  try {
    let t = performance.now();
    const sandbox = openSandbox({
      mode: "workspace-write",
      cwd,
      home: cwd,
      settings: {},
      readOnly: () => false,
    });
    await sandbox.state();
    const openMs = performance.now() - t;
    t = performance.now();
    await once(cwd, await sandbox.spawner());
    const firstMs = performance.now() - t;
    const c = await confinement();
    let wrapped: CommandSpawner | null = null;
    if (c.kind === "landlock") {
      wrapped = {
        spawn: (program, args, o) => {
          const w = c.wrap(program, args, { dirs: [cwd], files: ["/dev/null"] });
          return new Deno.Command(w.program, {
            args: w.args,
            cwd: o.cwd,
            env: o.env,
            stdin: "null",
            stdout: "piped",
            stderr: "piped",
            detached: true,
          }).spawn();
        },
      };
    }
    const [plain, worker, helper] = await timeCommands(cwd, [
      null,
      await sandbox.spawner(),
      wrapped,
    ]);
    await sandbox.dispose();
    const r = (n: number) => Math.round(n * 100) / 100;
    return {
      open_ms: r(openMs),
      first_ms: r(firstMs),
      plain_ms: r(plain),
      worker_ms: r(worker),
      worker_cost_ms: r(worker - plain),
      helper_ms: r(helper),
      helper_cost_ms: r(helper - plain),
    };
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}

if (import.meta.main) {
  for (const [name, value] of Object.entries(await benchSandbox())) {
    console.log(`${name}: ${value}`);
  }
}
