import assert from "node:assert/strict";
import { join } from "node:path";
import type { AgentEvent } from "../../../interfaces/agent.ts";
import type { StepChoice, StepView } from "../../../core/permission/step.ts";
import { Stepper } from "../../../core/permission/step.ts";
import { executeCall, type ToolRunner } from "../../../core/agent/execute.ts";
import { createDryRun } from "../../../core/permission/dry_run.ts";
import { Pipeline } from "../../../core/permission/pipeline.ts";
import { modeGate } from "../../../core/permission/mode_gate.ts";
import { nullRecorder } from "../../../core/history/recorder.ts";
import { realFs } from "../../../core/tools/fs_port.ts";
import { tools } from "../../../core/tools/mod.ts";
import { testContext, withTempDir } from "../../support/tool_context.ts";

const WRITE = { tool: "write_to_file", params: { path: "a.txt", content: "hello\n" } };

function deps(dir: string, runner: Partial<ToolRunner>) {
  const events: AgentEvent[] = [];
  const recorder = nullRecorder({ projectPath: dir });
  const full: ToolRunner = {
    pipeline: new Pipeline({ gates: [modeGate(() => "agent")], confirm: null, autoApprove: false }),
    context: (signal) => testContext(dir, { signal }),
    backups: null,
    ...runner,
  };
  return {
    deps: { tools, runner: full, recorder, emit: (e: AgentEvent) => events.push(e) },
    events,
    recorder,
  };
}

function stepper(choices: StepChoice[], seen: StepView[] = []) {
  return new Stepper({
    choose: (view) => {
      seen.push(view);
      return Promise.resolve(choices.shift()!);
    },
    notice: () => {},
  }, { on: true });
}

Deno.test("`executeCall()` with step mode on: skip runs nothing and tells the model", async () => {
  await withTempDir(async (dir) => {
    const seen: StepView[] = [];
    const { deps: d, recorder } = deps(dir, { stepper: stepper([{ kind: "skip" }], seen) });
    const done = await executeCall(
      d,
      WRITE,
      new AbortController().signal,
      "I will write.\n<tool_call>",
    );
    assert.equal(seen[0].rawText, "I will write.\n<tool_call>");
    assert.equal(await Deno.stat(join(dir, "a.txt")).catch(() => null), null);
    assert.match(done.message, /^\[write_to_file a\.txt\] Error \(skipped\):\nThe user skipped/);
    const call = recorder.snapshot().messages.find((m) => m.role === "tool_call");
    assert.equal(call?.verdicts?.at(-1)?.rule, "user: skip");
  });
});

Deno.test("`executeCall()` with step mode on: an edited call runs as edited and is recorded so", async () => {
  await withTempDir(async (dir) => {
    const edited = { tool: "write_to_file", params: { path: "b.txt", content: "edited\n" } };
    const { deps: d, recorder } = deps(dir, {
      stepper: stepper([{ kind: "edit", call: edited }, { kind: "run" }]),
    });
    const done = await executeCall(d, WRITE, new AbortController().signal, "");
    assert.equal(await Deno.readTextFile(join(dir, "b.txt")), "edited\n");
    assert.equal(await Deno.stat(join(dir, "a.txt")).catch(() => null), null);
    assert.match(done.message, /^\[write_to_file b\.txt\] Result:\nThe user edited this call/);
    const call = recorder.snapshot().messages.find((m) => m.role === "tool_call");
    assert.deepEqual(call?.call, edited);
  });
});

Deno.test("`executeCall()` with a dry-run runner: the write stays in memory, the command is not run", async () => {
  await withTempDir(async (dir) => {
    const dry = createDryRun(realFs);
    const { deps: d, events } = deps(dir, {
      pipeline: new Pipeline({ gates: [dry.gate], confirm: null, autoApprove: true }),
      context: (signal) => testContext(dir, { signal, fs: dry.fs }),
      simulate: dry.simulate,
    });
    const signal = new AbortController().signal;
    const wrote = await executeCall(d, WRITE, signal, "");
    assert.equal(wrote.result.ok, true, wrote.result.output);
    assert.equal(await Deno.stat(join(dir, "a.txt")).catch(() => null), null);
    const cmd = { tool: "execute_command", params: { command: "touch ran" } };
    const ran = await executeCall(d, cmd, signal, "");
    assert.match(ran.message, /Dry run: The command was not run/);
    assert.equal(await Deno.stat(join(dir, "ran")).catch(() => null), null);
    assert.equal(dry.commands()[0].command, "touch ran");
    const states = events.filter((e) => e.type === "state").map((e) =>
      e.type === "state" && e.state
    );
    assert.deepEqual(states, ["running", "running"]);
  });
});
