import assert from "node:assert/strict";
import type { ToolCall } from "../../../interfaces/tool.ts";
import {
  type GatedCall,
  type StepChoice,
  Stepper,
  type StepPrompt,
  type StepView,
} from "../../../core/permission/step.ts";
import { findTool } from "../../../core/tools/mod.ts";

/** A prompt that answers from a script and remembers what it was shown. */
function scripted(choices: StepChoice[]): StepPrompt & { seen: StepView[]; notices: string[] } {
  const seen: StepView[] = [];
  const notices: string[] = [];
  return {
    seen,
    notices,
    choose(view) {
      seen.push(view);
      const next = choices.shift();
      if (!next) throw new Error("no more scripted choices");
      return Promise.resolve(next);
    },
    notice: (m) => void notices.push(m),
  };
}

function gated(command: string): GatedCall {
  return {
    call: { tool: "execute_command", params: { command } },
    tool: findTool("execute_command")!,
    args: { command },
    preview: { kind: "exec", command, cwd: "/p" },
    decision: {
      action: "run",
      reason: "",
      verdicts: [{ gate: "security", action: "pass", rule: "no rule matched" }],
    },
  };
}

const regate = (call: ToolCall) => {
  const command = call.params.command as string;
  if (command === "") return Promise.resolve({ problem: "command: the command is empty" });
  return Promise.resolve(gated(command));
};

Deno.test("`Stepper.review()` shows the raw text and verdicts and records the user's run", async () => {
  const prompt = scripted([{ kind: "run" }]);
  const stepper = new Stepper(prompt, { on: true });
  const r = await stepper.review(gated("ls"), "Let me look.\n<tool_call>…", "/p", regate);
  assert.equal(prompt.seen[0].rawText, "Let me look.\n<tool_call>…");
  assert.equal(prompt.seen[0].decision.verdicts[0].gate, "security");
  assert.equal(r.result, undefined);
  assert.deepEqual(r.gated.decision.verdicts.at(-1), {
    gate: "step",
    action: "pass",
    rule: "user: run",
  });
  assert.equal(stepper.on, true);
});

Deno.test("`Stepper.review()` skip gives the model a skipped result and runs nothing", async () => {
  const r = await new Stepper(scripted([{ kind: "skip" }]), { on: true })
    .review(gated("rm -r build"), "", "/p", regate);
  assert.equal(r.result?.ok, false);
  assert.equal(r.result?.code, "skipped");
  assert.match(r.result!.output, /The user skipped this call/);
  assert.deepEqual(r.gated.decision.verdicts.at(-1), {
    gate: "step",
    action: "deny",
    rule: "user: skip",
  });
});

Deno.test("`Stepper.review()` re-gates an edited call, shows it again, and notes the edit", async () => {
  const prompt = scripted([
    { kind: "edit", call: { tool: "execute_command", params: { command: "" } } },
    { kind: "edit", call: { tool: "execute_command", params: { command: "ls -la" } } },
    { kind: "run" },
  ]);
  const r = await new Stepper(prompt, { on: true }).review(gated("ls"), "", "/p", regate);
  assert.deepEqual(prompt.notices, [
    "The edited call cannot be used: command: the command is empty",
  ]);
  assert.equal(prompt.seen.length, 3);
  assert.deepEqual(prompt.seen[2].preview, { kind: "exec", command: "ls -la", cwd: "/p" });
  assert.equal(r.gated.call.params.command, "ls -la");
  assert.match(
    r.note!,
    /The user edited this call's parameters before it ran: execute_command command="ls -la"/,
  );
  assert.equal(r.gated.decision.verdicts.at(-1)?.rule, "user: edit, then run");
});

Deno.test("`Stepper.review()` run-the-rest turns stepping off; abort calls onAbort", async () => {
  const stepper = new Stepper(scripted([{ kind: "rest" }]), { on: true });
  await stepper.review(gated("ls"), "", "/p", regate);
  assert.equal(stepper.on, false);
  stepper.set(true);
  assert.equal(stepper.on, true);

  let aborted = 0;
  const r = await new Stepper(scripted([{ kind: "abort" }]), { on: true, onAbort: () => aborted++ })
    .review(gated("ls"), "", "/p", regate);
  assert.equal(aborted, 1);
  assert.equal(r.result?.code, "aborted");
  assert.equal(r.gated.decision.verdicts.at(-1)?.rule, "user: abort");
});
