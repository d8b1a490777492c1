import assert from "node:assert/strict";
import { DueTimer } from "../../../core/llm/due_timer.ts";
import { FakeClock } from "../../support/fake_clock.ts";

function setup() {
  const clock = new FakeClock();
  const fired: number[] = [];
  const timer = new DueTimer(clock, () => fired.push(clock.time));
  return { clock, fired, timer };
}

Deno.test("`DueTimer` fires once when due, never after cancel", async () => {
  const { clock, fired, timer } = setup();
  timer.at(5000);
  await clock.advance(4999);
  assert.deepEqual(fired, []);
  await clock.advance(1);
  assert.deepEqual(fired, [5000]);
  await clock.advance(20_000);
  assert.deepEqual(fired, [5000], "once");
  timer.at(5000);
  await clock.advance(3000);
  timer.cancel();
  await clock.advance(20_000);
  assert.deepEqual(fired, [5000], "cancelled");
});

Deno.test("`DueTimer` counts from the last `at()`: later and earlier times both hold", async () => {
  const { clock, fired, timer } = setup();
  timer.at(5000);
  await clock.advance(3000);
  timer.cancel();
  timer.at(5000); // due at 8000, though a timer for 5000 is still pending
  await clock.advance(4000);
  assert.deepEqual(fired, [], "not at 5000");
  await clock.advance(1000);
  assert.deepEqual(fired, [8000]);
  timer.at(10_000);
  await clock.advance(1000);
  timer.at(500); // sooner than the pending timer: due at 9500
  await clock.advance(500);
  assert.deepEqual(fired, [8000, 9500]);
});

/** Runs `code` in a new Deno process; its output and how long it took to end. */
async function evalTimed(code: string): Promise<{ out: string; ms: number }> {
  const started = performance.now();
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { out: new TextDecoder().decode(r.stdout).trim(), ms: performance.now() - started };
}

const TIMER = new URL("../../../core/llm/due_timer.ts", import.meta.url).href;

Deno.test("`DueTimer` on the progress display's clock does not keep the process alive", async () => {
  const clock = new URL("../../../cli/ui/progress_clock.ts", import.meta.url).href;
  const { out, ms } = await evalTimed(
    `import { DueTimer } from "${TIMER}"; import { realClock } from "${clock}";
    new DueTimer(realClock, () => console.log("fired")).at(60_000);
    console.log("set");`,
  );
  assert.equal(out, "set");
  assert.ok(ms < 30_000, `the process waited ${Math.round(ms)} ms for the timer`);
});

Deno.test("`DueTimer.stop()` clears the pending timer: a process waiting on none ends", async () => {
  const { out, ms } = await evalTimed(
    `import { DueTimer, monotonicClock } from "${TIMER}";
    const t = new DueTimer(monotonicClock, () => console.log("fired"));
    t.at(60_000); t.at(30_000); t.cancel(); t.stop();
    console.log("stopped");`,
  );
  assert.equal(out, "stopped");
  assert.ok(ms < 25_000, `the process waited ${Math.round(ms)} ms for a stopped timer`);
});
