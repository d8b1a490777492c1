/**
 * Runs minoc as a subprocess for the benchmarks and watches it: wall time
 * from spawn to exit, and peak memory read from `/proc/<pid>/status`
 * (`VmHWM`, the resident-set high-water mark of the deno process).
 *
 * @module
 */
import { minocEnv, RUN_FLAGS } from "../tests/support/cli.ts";

/** What one run of minoc took. */
export interface TimedRun {
  code: number;
  stdout: string;
  stderr: string;
  /** When the process was spawned (ms since the epoch, like the test server's clock). */
  startedAt: number;
  /** Spawn to exit, in milliseconds. */
  wallMs: number;
  /** Highest VmHWM seen, in MB; NaN where /proc is missing. */
  peakMb: number;
}

/** Options of {@link timedRun}. */
export interface TimedRunOptions {
  /** The script minoc runs from: `main.ts` or a bundle. */
  entry: string;
  cwd: string;
  /** The user's home for the run (default `<cwd>/.home`; `.minoc` goes inside it). */
  home?: string;
  /** How often to read the memory high-water mark (default 5 ms). */
  pollMs?: number;
  /** Told the resident set (`VmRSS`, MB) at each reading. */
  onRss?: (mb: number) => void;
  /** Environment added to the clean one (see `minocEnv`). */
  env?: Record<string, string>;
}

/** The current time on the same clock as `RecordedRequest.receivedAt`. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

/** Runs `minoc <args>` with the permissions it ships with, to its end. */
export async function timedRun(args: string[], o: TimedRunOptions): Promise<TimedRun> {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...RUN_FLAGS, o.entry, ...args],
    cwd: o.cwd,
    env: minocEnv({ cwd: o.cwd, home: o.home, env: o.env }),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
  const startedAt = epochMs();
  const child = command.spawn();
  let peakKb = NaN;
  let running = true;
  const watch = (async () => {
    while (running) {
      const kb = await memoryKb(child.pid);
      if (kb !== undefined) peakKb = Number.isNaN(peakKb) ? kb.hwm : Math.max(peakKb, kb.hwm);
      if (kb !== undefined) o.onRss?.(kb.rss / 1024);
      await new Promise((r) => setTimeout(r, o.pollMs ?? 5));
    }
  })();
  const out = await child.output();
  const wallMs = epochMs() - startedAt;
  running = false;
  await watch;
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    startedAt,
    wallMs,
    peakMb: peakKb / 1024,
  };
}

/** `VmHWM` and `VmRSS` of a process in kB, or undefined once it is gone (or without /proc). */
async function memoryKb(pid: number): Promise<{ hwm: number; rss: number } | undefined> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(status);
    const rss = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return hwm && rss ? { hwm: Number(hwm[1]), rss: Number(rss[1]) } : undefined;
  } catch {
    return undefined;
  }
}

/** The median of `xs` (NaN for none). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Rounds to `digits` decimals. */
export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
