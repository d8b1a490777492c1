import assert from "node:assert/strict";
import { busy } from "../../bench/busy.ts";
import { e2eRows } from "../../bench/rows_e2e.ts";

/** The machine's idle share over `ms`, from /proc/stat (all cores together). */
async function idleShare(ms: number): Promise<number> {
  const read = () => {
    const cpu = Deno.readTextFileSync("/proc/stat").split("\n")[0].trim().split(/\s+/).slice(1)
      .map(Number);
    return { idle: cpu[3] + cpu[4], total: cpu.reduce((a, b) => a + b, 0) };
  };
  const a = read();
  await new Promise((r) => setTimeout(r, ms));
  const b = read();
  return (b.idle - a.idle) / Math.max(1, b.total - a.total);
}

/** Processes whose command line is the spinner's. */
function spinnerCount(): number {
  let n = 0;
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      if (Deno.readTextFileSync(`/proc/${e.name}/cmdline`).includes("for (;;) {}")) n++;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

Deno.test({
  name: "busy() keeps every core loaded while it measures, and leaves no spinner behind",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const { result, load } = await busy(async () => ({
      idle: await idleShare(400),
      spinners: spinnerCount(),
    }));
    assert.equal(result.spinners, navigator.hardwareConcurrency);
    assert.ok(result.idle < 0.25, `idle share ${result.idle} while busy`);
    assert.ok(load.busyPct >= 75, `busy share ${load.busyPct}%`);
    assert.equal(spinnerCount(), 0);
  },
});

Deno.test("e2eRows() states the busy machine's agent time and each part's load", () => {
  const src = {
    s200_busy_agent_ms_median: 9.5,
    s200_busy_agent_ms_late: 9.1,
    ...{ load_startup_busy_pct: 30, load_startup_avg: 0.4 },
    ...{ load_task3_busy_pct: 35, load_task3_avg: 0.6 },
    ...{ load_s200_busy_pct: 40, load_s200_avg: 0.8 },
    ...{ load_busy_busy_pct: 100, load_busy_avg: 1.2 },
  };
  const rows = e2eRows(src, { ...src, s200_busy_agent_ms_median: 4.5, load_busy_busy_pct: -1 });
  const busyRow = rows.find((r) => r.measure.includes("every core kept busy"));
  assert.equal(busyRow?.value, 9.5);
  assert.equal(busyRow?.bundle, 4.5);
  assert.equal(busyRow?.meets?.(4.5), true);
  assert.equal(busyRow?.meets?.(9.5), false);
  const loads = rows.filter((r) => r.measure.startsWith("machine's load"));
  assert.deepEqual(loads.map((r) => [r.value, r.bundle]), [
    ["30% (0.40)", "30% (0.40)"],
    ["35% (0.60)", "35% (0.60)"],
    ["40% (0.80)", "40% (0.80)"],
    ["100% (1.20)", "1.20"],
  ]);
});
