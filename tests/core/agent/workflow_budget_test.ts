import assert from "node:assert/strict";
import type { GateInput } from "../../../interfaces/tool.ts";
import { Pipeline } from "../../../core/permission/pipeline.ts";
import { BudgetPipeline, BudgetTracker } from "../../../core/agent/workflow_budget.ts";
import { readFile } from "../../../core/tools/read_file.ts";

Deno.test("BudgetTracker names the first budget that is spent", () => {
  let now = 0;
  const t = new BudgetTracker({ maxToolCalls: 2, maxTokens: 100, maxSeconds: 10 }, () => now);
  assert.equal(t.exhausted(), undefined);
  t.toolCall();
  t.tokens(60);
  assert.equal(t.line(), "budget: 1/2 tool calls · 60/100 tokens · 0/10 s");
  t.tokens(40);
  assert.equal(t.exhausted(), "tokens 100/100");
  now = 12_000;
  t.toolCall();
  assert.equal(t.exhausted(), "tool calls 2/2");
  assert.deepEqual(t.spent(), { toolCalls: 2, tokens: 100, seconds: 12 });
});

Deno.test("BudgetPipeline denies what the guard refuses and counts the calls the gates let run", async () => {
  const inner = new Pipeline({
    gates: [{ name: "g", check: () => ({ gate: "g", action: "pass" as const }) }],
    confirm: null,
    autoApprove: false,
  });
  let refuse: string | null = null;
  let runs = 0;
  const p = new BudgetPipeline(inner, () => refuse, () => runs++);
  const input: GateInput = {
    call: { tool: "read_file", params: { path: "a" } },
    tool: readFile,
    args: { path: "a" },
    preview: { kind: "none" },
    cwd: "/p",
  };
  assert.equal((await p.decide(input)).action, "run");
  assert.equal(runs, 1);
  refuse = "budget spent";
  const denied = await p.decide(input);
  assert.equal(denied.action, "deny");
  assert.equal(denied.reason, "budget spent");
  assert.deepEqual(denied.verdicts, [{
    gate: "workflow",
    action: "deny",
    reason: "budget spent",
    rule: "workflow",
  }]);
  assert.equal(runs, 1);
  assert.equal(p.gates, inner.gates);
});
