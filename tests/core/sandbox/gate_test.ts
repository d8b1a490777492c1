/** The sandbox gate's verdicts for commands by sandbox state, mode and answers. */
import assert from "node:assert/strict";
import { sandboxGate, type SandboxGateOptions } from "../../../core/sandbox/gate.ts";
import type { SandboxState } from "../../../core/sandbox/session.ts";
import type { GateInput } from "../../../interfaces/tool.ts";

function input(tool = "execute_command"): GateInput {
  return {
    call: { tool, params: { command: "make" } },
    tool: { name: tool } as GateInput["tool"],
    args: { command: "make" },
    preview: { kind: "exec", command: "make", cwd: "/p" },
    cwd: "/p",
  };
}

function gate(state: SandboxState, o: Partial<SandboxGateOptions> = {}) {
  const g = sandboxGate({
    state: () => Promise.resolve(state),
    readOnly: () => false,
    unconfined: "ask",
    autoApprove: true,
    ask: null,
    ...o,
  });
  return { g };
}

const none: SandboxState = { kind: "none", reason: "no Landlock" };

Deno.test("sandboxGate() passes confined commands and tools that run none", async () => {
  const { g } = gate({ kind: "on", label: "Landlock (ABI 7)", notes: [] });
  assert.equal((await g.check(input())).action, "pass");
  assert.equal((await gate(none).g.check(input("read_file"))).action, "pass");
});

Deno.test("sandboxGate() refuses commands with --yes and nobody to ask where no sandbox works", async () => {
  const v = await gate(none).g.check(input());
  assert.equal(v.action, "deny");
  assert.match(
    v.reason!,
    /no OS sandbox here \(no Landlock\).*even with --yes.*"unconfined": "allow"/,
  );
});

Deno.test("sandboxGate() asks itself for every command with --yes where no sandbox works", async () => {
  const questions: string[] = [];
  const answers = [true, false];
  const { g } = gate(none, {
    ask: (q) => {
      questions.push(q);
      return Promise.resolve(answers.shift()!);
    },
  });
  assert.equal((await g.check(input())).action, "pass");
  assert.equal((await g.check(input())).action, "deny");
  assert.equal(questions.length, 2);
  assert.match(questions[0], /without a sandbox\? make/);
});

Deno.test("sandboxGate() leaves the question to the approval prompt without --yes", async () => {
  const v = await gate(none, { autoApprove: false }).g.check(input());
  assert.equal(v.action, "ask");
});

Deno.test("sandboxGate() runs commands unasked where the user set unconfined to allow", async () => {
  assert.equal((await gate(none, { unconfined: "allow" }).g.check(input())).action, "pass");
});

Deno.test("sandboxGate() refuses commands in plan mode when nothing can hold them read-only", async () => {
  const v = await gate(none, { readOnly: () => true, unconfined: "allow" }).g.check(input());
  assert.equal(v.action, "deny");
  assert.match(v.reason!, /plan mode/);
});

Deno.test("sandboxGate() asks once per session when the sandbox is off", async () => {
  let asked = 0;
  const { g } = gate({ kind: "off" }, {
    ask: () => {
      asked++;
      return Promise.resolve(true);
    },
  });
  assert.equal((await g.check(input())).action, "pass");
  assert.equal((await g.check(input("start_process"))).action, "pass");
  assert.equal(asked, 1);
});
