/**
 * A busy machine for the benchmark, and the machine's load beside each
 * figure: {@link busy} keeps every core loaded by a process that only spins
 * (each as eager for the CPU as minoc) while it measures something, and
 * {@link loadMeter} tells how busy the machine was over a part of the
 * benchmark. The 1-minute load average alone lags a part of a few seconds
 * (two spinners on two cores for 8 s read 1.2), so the rows give the share
 * of all cores' time that was not idle (minoc's own included, from
 * `/proc/stat`), and the load average at the end beside it.
 *
 * @module
 */

/** The 1-minute load average now (0 where the system does not tell it). */
export function loadNow(): number {
  try {
    return Math.round(Deno.loadavg()[0] * 100) / 100;
  } catch {
    return 0;
  }
}

/** Idle and total CPU time of all cores so far (Linux), or null. */
function cpuTimes(): { idle: number; total: number } | null {
  try {
    const line = Deno.readTextFileSync("/proc/stat").split("\n", 1)[0];
    const t = line.trim().split(/\s+/).slice(1).map(Number);
    return { idle: t[3] + (t[4] ?? 0), total: t.reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}

/** The machine's load over a part of the benchmark (see {@link loadMeter}). */
export interface Load {
  /** Share of all cores' time that was not idle, in percent (-1 where unknown). */
  busyPct: number;
  /** The 1-minute load average at the end. */
  avg: number;
}

/** Starts measuring; the function returned tells the machine's load since. */
export function loadMeter(): () => Load {
  const from = cpuTimes();
  return () => {
    const to = cpuTimes();
    const avg = loadNow();
    if (from === null || to === null || to.total <= from.total) return { busyPct: -1, avg };
    const idle = (to.idle - from.idle) / (to.total - from.total);
    return { busyPct: Math.round((1 - idle) * 100), avg };
  };
}

/** A load as the rows show it, e.g. "38% (0.71)". */
export function loadText(load: Load): string {
  const avg = load.avg.toFixed(2);
  return load.busyPct < 0 ? avg : `${load.busyPct}% (${avg})`;
}

/**
 * Runs `fn` while `spinners` processes (default: one per core) spin, then
 * stops them; also returns the machine's load over `fn` ({@link loadMeter}).
 */
export async function busy<T>(
  fn: () => Promise<T>,
  spinners = navigator.hardwareConcurrency,
): Promise<{ result: T; load: Load }> {
  const children = Array.from({ length: spinners }, () =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", "for (;;) {}"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn());
  try {
    // The spinners are running (not starting) before anything is measured.
    await new Promise((r) => setTimeout(r, 500));
    const load = loadMeter();
    const result = await fn();
    return { result, load: load() };
  } finally {
    for (const child of children) {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await child.status;
    }
  }
}
