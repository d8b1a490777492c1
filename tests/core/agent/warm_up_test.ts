import assert from "node:assert/strict";
import { join } from "node:path";
import type { Gate } from "../../../interfaces/tool.ts";
import { WarmUp } from "../../../core/agent/warm_up.ts";
import { approvalGate } from "../../../core/permission/approval.ts";
import { Pipeline } from "../../../core/permission/pipeline.ts";
import { securityGate } from "../../../core/permission/security.ts";
import { tools } from "../../../core/tools/mod.ts";
import { gateInput } from "../../support/gate_input.ts";
import { withTempDir } from "../../support/tool_context.ts";

/** A gate that counts the pieces of its warm-up and signals the end. */
function countingGate(pieces: number) {
  let done = 0;
  let finished: () => void = () => {};
  const over = new Promise<void>((resolve) => finished = resolve);
  const gate: Gate = {
    name: "counting",
    check: () => ({ gate: "counting", action: "pass" }),
    async warm(step) {
      for (let i = 0; i < pieces; i++) {
        await step();
        done++;
      }
      finished();
    },
  };
  return { gate, done: () => done, over };
}

const later = () => new Promise((resolve) => setTimeout(resolve, 20));

Deno.test("`WarmUp` does nothing before `resume()`, stops at `pause()` and finishes after the next `resume()`", async () => {
  const counting = countingGate(200_000);
  const pipeline = new Pipeline({ gates: [counting.gate], confirm: null, autoApprove: false });
  const warm = new WarmUp(tools, pipeline);
  await later();
  assert.equal(counting.done(), 0);
  warm.resume();
  warm.pause(); // the reply ended at once: not even the first piece runs
  await later();
  assert.equal(counting.done(), 0);
  warm.resume();
  await counting.over;
  assert.equal(counting.done(), 200_000);
});

Deno.test("`WarmUp` runs a piece that cannot be cut only while the model is silent: the first at once, the next after a quiet while", async () => {
  const ran: string[] = [];
  const large = (name: string): Gate => ({
    name,
    check: () => ({ gate: name, action: "pass" }),
    async warm(_step, _samples, big) {
      await big?.();
      ran.push(name);
    },
  });
  const gates = () => [large("c"), large("b"), large("a")];
  const pipeline = new Pipeline({ gates: gates(), confirm: null, autoApprove: false });
  const warm = new WarmUp(tools, pipeline);
  warm.resume("streaming"); // the model already answers: no moment for it
  await later();
  assert.deepEqual(ran, []);
  warm.pause();
  warm.resume("waiting"); // a request has just gone out
  await new Promise((resolve) => setTimeout(resolve, 1));
  assert.deepEqual(ran, ["a"], "the first at once, the next not yet");
  warm.resume("streaming"); // the model answered: the next waits for the next request
  await later();
  assert.deepEqual(ran, ["a"]);
  warm.pause();
  warm.resume("waiting");
  await later(); // the model stays silent: after the first, the next comes too
  await later();
  assert.deepEqual(ran, ["a", "b", "c"]);
  warm.stop();
});

Deno.test("`WarmUp.slice()` lets other work in only while the model works, and says stop once the session ends", async () => {
  const counting = countingGate(1);
  const pipeline = new Pipeline({ gates: [counting.gate], confirm: null, autoApprove: false });
  const warm = new WarmUp(tools, pipeline);
  const answers: boolean[] = [];
  const waiting = warm.slice().then((go) => answers.push(go));
  await later();
  assert.deepEqual([...answers], [], "parked: no request is out");
  warm.resume("waiting");
  await waiting;
  assert.deepEqual([...answers], [true]);
  warm.pause();
  const parked = warm.slice().then((go) => answers.push(go));
  await later();
  assert.deepEqual([...answers], [true], "parked again: the reply ended");
  warm.stop();
  await parked;
  assert.deepEqual([...answers], [true, false], "the session ended");
  assert.equal(await warm.slice(), false);
  warm.resume();
  assert.equal(await warm.slice(), false, "stopped for good");
});

Deno.test("`securityGate().warm()` and `approvalGate().warm()` decide nothing: later checks are judged as without them", async () => {
  await withTempDir(async (dir) => {
    const read = (p: string) => Deno.readTextFile(p);
    const cold = securityGate({ cwd: dir, home: dir, shell: "bash", readFile: read });
    const warmed = securityGate({ cwd: dir, home: dir, shell: "bash", readFile: read });
    const approval = approvalGate({ projectDir: dir, homeDir: join(dir, "home") });
    const coldApproval = approvalGate({ projectDir: dir, homeDir: join(dir, "home") });
    const step = () => Promise.resolve();
    const samples = [
      await gateInput("read_file", { path: ".minoc-warm-up" }, dir),
      await gateInput("write_to_file", { path: ".minoc-warm-up", content: "a\n" }, dir),
    ];
    await warmed.warm?.(step, samples);
    await approval.warm?.(step, samples);
    // Judging the samples wrote nothing: no rule file, no sample file.
    assert.deepEqual([...Deno.readDirSync(dir)], []);
    // The warm-up remembered no written file: a script run later is not flagged as written.
    const body = "#!/bin/sh\necho hi\n";
    await Deno.writeTextFile(join(dir, "run.sh"), body);
    const runs = await gateInput("execute_command", { command: "sh run.sh" }, dir);
    const write = await gateInput("write_to_file", { path: ".env", content: "A=1\n" }, dir);
    for (const input of [runs, write]) {
      assert.deepEqual(await warmed.check(input), await cold.check(input));
    }
    assert.equal((await approval.check(runs)).action, "ask");
    for (const input of [runs, write, ...samples]) {
      assert.deepEqual(await approval.check(input), await coldApproval.check(input));
    }
  });
});
