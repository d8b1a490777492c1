/**
 * End-to-end: `minoc run --workflow` and `/workflow` in the chat against the
 * scripted server — Plan → Act → Reflect with the one retry, budgets, the
 * blackboard, and what the session file records.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";
import { skillProject } from "../support/skills.ts";

const call = toolCall;

const json = (v: unknown) => "```json\n" + JSON.stringify(v) + "\n```";

const PLAN = {
  steps: [
    { use: "brand-kit", why: "learn the rules", inputs: [], outputs: [] },
    {
      use: "run_skill_script",
      why: "write the notes",
      inputs: ["title"],
      outputs: ["build/notes.md"],
    },
  ],
  criteria: ["build/notes.md exists and carries the title Launch"],
  question: "Which title should the notes have?",
};

type Msg = { role: string; content: string; event?: string; data?: Record<string, unknown> };

Deno.test("run --workflow plans, acts, fails the check, retries once with the advice, converges and reports", async () => {
  await using p = await skillProject();
  await using server = await startServer({
    replies: [
      { text: "Plan:\n" + json(PLAN) },
      { text: call("use_skill", { name: "brand-kit" }) },
      { text: call("run_skill_script", { name: "brand-kit", script: "make_notes.py" }) },
      {
        text: call("blackboard_put", {
          key: "notes",
          kind: "file",
          path: "build/notes.md",
          summary: "Notes without a title",
        }),
      },
      { text: "Notes are written." },
      {
        text: json({
          ok: false,
          checks: [{ criterion: PLAN.criteria[0], ok: false, evidence: "the title is Notes" }],
          advice: "Run make_notes.py again with the title Launch",
        }),
      },
      {
        text: call("run_skill_script", {
          name: "brand-kit",
          script: "make_notes.py",
          args: "Launch",
        }),
      },
      {
        text: call("blackboard_put", {
          key: "notes",
          kind: "file",
          path: "build/notes.md",
          summary: "Notes titled Launch",
        }),
      },
      { text: "Fixed the title." },
      {
        text: json({
          ok: true,
          checks: [{ criterion: PLAN.criteria[0], ok: true, evidence: "# Launch" }],
          advice: "",
        }),
      },
      { text: "Produced build/notes.md, titled Launch, in the brand colours." },
    ],
  });
  const r = await runMinoc(
    [
      "run",
      "--workflow",
      "write launch notes",
      "--base-url",
      server.baseUrl,
      "--model",
      "m",
      "--allow",
      "run_skill_script:brand-kit",
      "--budget-calls",
      "10",
    ],
    { cwd: p.dir },
  );
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.equal(
    await Deno.readTextFile(join(p.dir, "build", "notes.md")),
    "# Launch\n\nBrand colours: teal, sand.\n",
  );
  for (const phase of ["plan", "act", "reflect", "retry", "report"]) {
    assert.match(r.stdout, new RegExp(`» workflow: ${phase} · budget: `), phase);
  }
  assert.match(r.stdout, /» budget: 1\/10 tool calls · [\d,]+\/200,000 tokens · \d+\/600 s/);
  assert.match(r.stdout, /» reflect: not met — Run make_notes\.py again with the title Launch/);
  assert.match(r.stdout, /» reflect: every criterion is met/);
  assert.match(r.stdout, /» workflow: converged · budget: 5\/10 tool calls/);
  assert.match(r.stdout, /\nProduced build\/notes\.md, titled Launch, in the brand colours\.\n$/);

  const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
  assert.equal(reqs.length, 11);
  const sent = (i: number) => reqs[i].body.messages.at(-1).content as string;
  assert.match(sent(0), /^\[Workflow · Plan\]\nGoal: write launch notes\n/);
  assert.match(
    sent(1),
    /^\[Workflow · Act\]\nYou asked: Which title should the notes have\?\nAnswer: No user is available/,
  );
  assert.match(sent(1), /10 tool calls, 200000 tokens, 600 s/);
  assert.match(sent(1), /\nblackboard_put <key> <kind> <path>\? <summary>: /);
  assert.match(sent(5), /^\[Workflow · Reflect\]\n/);
  assert.match(
    sent(5),
    /\n- notes \(file\) build\/notes\.md: Notes without a title\nCriteria:\n1\. build\/notes\.md exists/,
  );
  assert.match(
    sent(6),
    /^\[Workflow · Act \(retry\)\]\nThe check failed\.\n- build\/notes\.md exists .*: the title is Notes\nAdvice: Run make_notes\.py again/,
  );
  assert.match(sent(9), /- notes \(file\) build\/notes\.md: Notes titled Launch/);
  assert.match(sent(10), /^\[Workflow · Report\]\n/);
  assert.doesNotMatch(JSON.stringify(reqs.map((q) => q.body)), /SOURCE-MARKER/);

  const [session] = await sessionFiles(join(p.dir, ".home", ".minoc"));
  const events = (session.messages as Msg[]).filter((m) =>
    m.role === "system" && m.event?.startsWith("workflow_")
  );
  assert.deepEqual(
    events.map((m) => m.event === "workflow_phase" ? `phase:${m.data?.phase}` : m.event),
    [
      "phase:plan",
      "workflow_plan",
      "workflow_question",
      "phase:act",
      "workflow_blackboard",
      "phase:reflect",
      "workflow_reflect",
      "phase:retry",
      "workflow_blackboard",
      "phase:reflect",
      "workflow_reflect",
      "phase:report",
      "workflow_end",
    ],
  );
  const plan = events[1].data?.plan as { criteria: string[]; steps: unknown[] };
  assert.deepEqual(plan.criteria, PLAN.criteria);
  assert.equal(plan.steps.length, 2);
  assert.equal(events[6].data?.ok, false);
  assert.equal(events[10].data?.ok, true);
  const end = events.at(-1)!.data as Record<string, unknown>;
  assert.equal(end.outcome, "converged");
  assert.equal((end.spent as { toolCalls: number }).toolCalls, 5);
  assert.deepEqual(end.blackboard, [{
    key: "notes",
    kind: "file",
    path: "build/notes.md",
    summary: "Notes titled Launch",
  }]);
  const meta = (session.metadata as { workflow: Record<string, unknown> }).workflow;
  assert.equal(meta.goal, "write launch notes");
  assert.equal(meta.converged, true);
  assert.deepEqual(meta.budgets, { maxToolCalls: 10, maxTokens: 200_000, maxSeconds: 600 });
});

Deno.test("run --workflow keeps the plan read-only, stops at the budget, and reports why it did not converge", async () => {
  await using p = await skillProject();
  await using server = await startServer({
    replies: [
      { text: call("write_to_file", { path: "early.txt", content: "too soon" }) },
      {
        text: json({
          steps: [{ use: "brand-kit", why: "notes" }],
          criteria: ["build/notes.md exists"],
        }),
      },
      { text: call("use_skill", { name: "brand-kit" }) },
      { text: call("run_skill_script", { name: "brand-kit", script: "make_notes.py" }) },
      { text: json({ ok: false, checks: [], advice: "run the script" }) },
      { text: call("run_skill_script", { name: "brand-kit", script: "make_notes.py" }) },
      { text: json({ ok: false, checks: [], advice: "allow more tool calls" }) },
      {
        text:
          "Could not converge: the budget of 1 tool call was spent; rerun with --budget-calls 5.",
      },
    ],
  });
  const r = await runMinoc(
    [
      "run",
      "--workflow",
      "notes",
      "--base-url",
      server.baseUrl,
      "--model",
      "m",
      "--yes",
      "--budget-calls",
      "1",
      "--json",
    ],
    { cwd: p.dir },
  );
  assert.equal(r.code, 1, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.ok, false);
  assert.equal(out.outcome, "not_converged");
  assert.match(out.result, /rerun with --budget-calls 5/);
  assert.equal(out.spent.toolCalls, 1);
  assert.equal(out.reflections.length, 2);
  assert.equal(await Deno.stat(join(p.dir, "early.txt")).then(() => true, () => false), false);
  assert.equal(
    await Deno.stat(join(p.dir, "build", "notes.md")).then(() => true, () => false),
    false,
  );

  const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
  assert.equal(reqs.length, 8);
  const sent = (i: number) => reqs[i].body.messages.at(-1).content as string;
  assert.match(
    sent(1),
    /^\[write_to_file early\.txt\] Error \(denied\):\nThe workflow is in its plan phase: change nothing now/,
  );
  assert.match(
    sent(4),
    /^\[Workflow · Reflect\]/,
    "the act phase stops one reply after the budget is spent",
  );
  assert.match(reqs[3].body.messages.at(-1).content, /^\[use_skill brand-kit\] Result:/);
  assert.match(sent(5), /^\[Workflow · Act \(retry\)\]/);
  assert.match(
    sent(7),
    /^\[Workflow · Report\]\nNote: the workflow stopped early \(budget spent: tool calls 1\/1\)/,
  );
  const retried = reqs[6].body.messages.at(-1).content as string;
  assert.match(retried, /^\[Workflow · Reflect\]/);
  const denied = reqs[6].body.messages.at(-2).content as string;
  assert.match(denied, /Error \(denied\):\nThe workflow's budget is spent \(tool calls 1\/1\)/);
});

Deno.test("/workflow in the chat runs a goal through every phase and records it", async () => {
  await using p = await skillProject();
  await using server = await startServer({
    replies: [
      {
        text: json({ steps: [{ use: "read_file", why: "look" }], criteria: ["nothing to change"] }),
      },
      { text: "Nothing needed changing." },
      { text: json({ ok: true, checks: [], advice: "" }) },
      { text: "Nothing was produced: the project already meets the goal." },
    ],
  });
  const r = await runMinoc(["--base-url", server.baseUrl, "--model", "m"], {
    cwd: p.dir,
    stdin: "/workflow --budget-calls 3 check the notes\n/exit\n",
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /» workflow: plan · budget: 0\/3 tool calls/);
  assert.match(r.stdout, /» workflow: converged/);
  assert.match(r.stdout, /Nothing was produced: the project already meets the goal\./);
  const first = server.requests.find((q) => q.path.endsWith("/chat/completions"))!;
  assert.match(first.body.messages.at(-1).content, /^\[Workflow · Plan\]\nGoal: check the notes\n/);
  const [session] = await sessionFiles(join(p.dir, ".home", ".minoc"));
  const end = (session.messages as Msg[]).find((m) => m.event === "workflow_end");
  assert.equal(end?.data?.outcome, "converged");
});
