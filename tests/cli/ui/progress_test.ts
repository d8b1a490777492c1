import assert from "node:assert/strict";
import {
  createProgress,
  formatElapsed,
  progressDelay,
  type SpinnerPort,
  toolTask,
} from "../../../cli/ui/progress.ts";
import { FakeClock } from "../../support/fake_clock.ts";

/** A spinner that records what it was asked to show. */
function recordingSpinner() {
  const log: string[] = [];
  let text: string | null = null;
  const port: SpinnerPort = {
    start: (t) => void (log.push(`start ${t}`), text = t),
    setText: (t) => void (text = t),
    stop: () => void (log.push("stop"), text = null),
  };
  return { log, port, shown: () => text };
}

function setup(enabled = true) {
  const clock = new FakeClock();
  const s = recordingSpinner();
  const progress = createProgress({ enabled, afterMs: 5000, clock, spinner: () => s.port });
  return { clock, progress, ...s };
}

Deno.test("`createProgress()` shows nothing for a wait shorter than the threshold", async () => {
  const { clock, progress, log } = setup();
  progress.onEvent({ type: "waiting", model: "gpt-4.1-mini" });
  await clock.advance(4900);
  progress.onEvent({ type: "text", text: "Hi" });
  await clock.advance(10_000);
  assert.deepEqual(log, []);
});

Deno.test("`createProgress()` shows the task and elapsed time after the threshold, and stops before text", async () => {
  const { clock, progress, log, shown } = setup();
  progress.onEvent({ type: "waiting", model: "gpt-4.1-mini" });
  await clock.advance(5000);
  assert.equal(shown(), "waiting for gpt-4.1-mini · 5 s");
  await clock.advance(2000);
  assert.equal(shown(), "waiting for gpt-4.1-mini · 7 s");
  progress.onEvent({ type: "text", text: "Hello" });
  assert.equal(shown(), null);
  assert.deepEqual(log, ["start waiting for gpt-4.1-mini · 5 s", "stop"]);
});

Deno.test("`createProgress()` times a tool from its verdict, not through the approval prompt", async () => {
  const { clock, progress, shown } = setup();
  progress.onEvent({
    type: "tool_start",
    tool: "execute_command",
    summary: "execute_command npm test",
  });
  await clock.advance(60_000); // the user thinks at the prompt
  assert.equal(shown(), null, "no spinner while the prompt waits");
  progress.onEvent({ type: "verdict", gate: "approval", action: "pass" });
  await clock.advance(6000);
  assert.equal(shown(), "running npm test · 6 s");
  progress.onEvent({ type: "tool_end", tool: "execute_command", ok: true, display: "", ms: 1 });
  assert.equal(shown(), null);
});

Deno.test("`createProgress()` shows share done and time left during a retry wait", async () => {
  const { clock, progress, shown } = setup();
  progress.onEvent({ type: "waiting", model: "m" });
  await clock.advance(6000);
  progress.onEvent({
    type: "retry_wait",
    attempt: 2,
    max: 3,
    waitMs: 8000,
    reason: "429 rate limited",
  });
  await clock.advance(2000);
  assert.equal(shown(), "retrying (attempt 2/3, 429 rate limited) · 8 s · 25% · ~6 s left");
  await clock.advance(7000);
  assert.equal(shown(), "waiting for m · 15 s", "back to the wait once the retry went out");
});

Deno.test("`createProgress()` stays silent when disabled and resumes when enabled", async () => {
  const { clock, progress, shown } = setup(false);
  progress.onEvent({ type: "waiting", model: "m" });
  await clock.advance(10_000);
  assert.equal(shown(), null);
  progress.setEnabled(true);
  await clock.advance(5000);
  assert.equal(shown(), "waiting for m · 15 s");
  progress.setEnabled(false);
  assert.equal(shown(), null);
});

Deno.test("`suspend()` keeps the spinner away while a prompt runs", async () => {
  const { clock, progress, shown } = setup();
  progress.begin("running ask_followup_question");
  await clock.advance(6000);
  assert.notEqual(shown(), null);
  let during: string | null = "unset";
  await progress.suspend(async () => {
    await clock.advance(20_000);
    during = shown();
  });
  assert.equal(during, null);
  await clock.advance(5000);
  assert.match(shown() ?? "", /^running ask_followup_question · 31 s$/);
});

Deno.test("`touch()` hides the spinner until another quiet threshold passes", async () => {
  const { clock, progress, shown } = setup();
  progress.begin("running npm test");
  await clock.advance(5000);
  progress.touch();
  assert.equal(shown(), null);
  await clock.advance(4000);
  assert.equal(shown(), null);
  await clock.advance(1000);
  assert.equal(shown(), "running npm test · 10 s");
});

Deno.test("`progressDelay()` reads MINOC_PROGRESS_AFTER_MS and defaults to 5 s", () => {
  assert.equal(progressDelay({}), 5000);
  assert.equal(progressDelay({ MINOC_PROGRESS_AFTER_MS: "250" }), 250);
  assert.equal(progressDelay({ MINOC_PROGRESS_AFTER_MS: "soon" }), 5000);
});

Deno.test("`formatElapsed()` and `toolTask()` word the spinner line", () => {
  assert.equal(formatElapsed(7_400), "7 s");
  assert.equal(formatElapsed(65_000), "1m 05s");
  assert.equal(toolTask("execute_command npm test"), "running npm test");
  assert.equal(toolTask("read_file a.ts"), "running read_file a.ts");
});

Deno.test("`createProgress()` draws nothing while the provider waits for the user (the bridge)", async () => {
  const { clock, progress, log } = setup();
  progress.onEvent({ type: "waiting", model: "web-chat", waitsForUser: true });
  await clock.advance(60_000);
  assert.deepEqual(log, []);
});

Deno.test("`createProgress()` draws control and bidi characters of a label as visible escapes", async () => {
  const { clock, progress, shown } = setup();
  progress.onEvent({
    type: "tool_start",
    tool: "execute_command",
    summary: "execute_command touch x \x1b[2K\x1b[1A\u202Els",
  });
  progress.onEvent({ type: "verdict", gate: "approval", action: "pass" });
  await clock.advance(5000);
  assert.equal(shown(), "running touch x \\x1b[2K\\x1b[1A\\u202els · 5 s");
  progress.begin("waiting for \x9bmodel");
  await clock.advance(5000);
  assert.equal(shown(), "waiting for \\x9bmodel · 5 s");
});
