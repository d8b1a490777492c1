import assert from "node:assert/strict";
import { BudgetTracker } from "../../../core/agent/workflow_budget.ts";
import {
  actMessage,
  extractJson,
  planMessage,
  readPlan,
  readReflection,
  reflectMessage,
  reportMessage,
  retryMessage,
} from "../../../core/agent/workflow_prompts.ts";

Deno.test("readPlan() reads steps, criteria and the question from a fenced JSON block", () => {
  const plan = readPlan(`Here is the plan.
\`\`\`json
{"steps": [{"use": "brand-kit", "why": "brand rules", "inputs": ["title"], "outputs": ["build/notes.md"]},
           {"skill": "run_skill_script", "why": "make notes"}],
 "criteria": ["build/notes.md exists", "it names the brand colours"],
 "question": "Which title?"}
\`\`\``);
  assert.deepEqual(plan, {
    steps: [
      { use: "brand-kit", why: "brand rules", inputs: ["title"], outputs: ["build/notes.md"] },
      { use: "run_skill_script", why: "make notes", inputs: [], outputs: [] },
    ],
    criteria: ["build/notes.md exists", "it names the brand colours"],
    question: "Which title?",
  });
});

Deno.test("readPlan() keeps a reply without JSON as one step and no question", () => {
  const plan = readPlan("1. Read the skill\n2. Run it");
  assert.equal(plan.steps.length, 1);
  assert.match(plan.steps[0].why, /Read the skill/);
  assert.deepEqual(plan.criteria, []);
  assert.equal(plan.question, undefined);
  assert.equal(readPlan('{"steps": [], "criteria": [], "question": "  "}').question, undefined);
});

Deno.test("readReflection() reads ok, checks and advice; no JSON means not ok", () => {
  const r = readReflection(
    '{"ok": false, "checks": [{"criterion": "c1", "ok": false, "evidence": "missing"}], "advice": "run it"}',
  );
  assert.deepEqual(r, {
    ok: false,
    checks: [{ criterion: "c1", ok: false, evidence: "missing" }],
    advice: "run it",
  });
  assert.equal(readReflection('{"ok": "yes"}').ok, false);
  assert.deepEqual(readReflection("looks fine"), { ok: false, checks: [], advice: "looks fine" });
});

Deno.test("extractJson() prefers a fenced block and falls back to the outer braces", () => {
  assert.deepEqual(extractJson('x ```json\n{"a": 1}\n``` {"b": 2}'), { a: 1 });
  assert.deepEqual(extractJson('text {"b": {"c": 2}} more'), { b: { c: 2 } });
  assert.equal(extractJson("[1, 2]"), null);
  assert.equal(extractJson("no json"), null);
});

Deno.test("the phase messages carry the goal, budgets, blackboard, criteria and advice", () => {
  const spend = new BudgetTracker({ maxToolCalls: 7, maxTokens: 900, maxSeconds: 60 });
  assert.match(planMessage("make notes"), /^\[Workflow · Plan\]\nGoal: make notes\n/);
  const plan = { steps: [], criteria: ["notes exist"], question: "Title?" };
  const act = actMessage(plan, "Q3", spend);
  assert.match(act, /You asked: Title\?\nAnswer: Q3/);
  assert.match(act, /7 tool calls, 900 tokens, 60 s/);
  assert.match(act, /\nblackboard_put <key> <kind> <path>\? <summary>: /);
  assert.match(act, /\nblackboard_get <key>\?: /);
  assert.match(act, /\nExample:\n<tool_call><blackboard_put><key>outline<\/key>/);
  const reflect = reflectMessage(plan, [{
    key: "notes",
    kind: "file",
    path: "build/n.md",
    summary: "s",
  }]);
  assert.match(reflect, /- notes \(file\) build\/n\.md: s\nCriteria:\n1\. notes exist/);
  const retry = retryMessage(
    {
      ok: false,
      checks: [{ criterion: "notes exist", ok: false, evidence: "none" }],
      advice: "run it",
    },
    spend,
  );
  assert.match(retry, /- notes exist: none\nAdvice: run it/);
  assert.match(
    reportMessage(false, "budget spent: tool calls 7/7"),
    /stopped early \(budget spent/,
  );
  assert.match(reportMessage(true, undefined), /how it meets the criteria/);
});
