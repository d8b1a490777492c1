/**
 * A busy machine for the benchmark, and the machine's load beside each
 * figure: {@link busy} keeps every core loaded by a process that only spins
 * (each as eager for the CPU as minoc) while it measures something, and
 * {@link loadNow} reads the 1-minute load average the rows state.
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

/**
 * Runs `fn` while `spinners` processes (default: one per core) spin, then
 * stops them; also returns the load average read at the end of `fn`.
 */
export async function busy<T>(
  fn: () => Promise<T>,
  spinners = navigator.hardwareConcurrency,
): Promise<{ result: T; load: number }> {
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
    const result = await fn();
    return { result, load: loadNow() };
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
