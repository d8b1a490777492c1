import assert from "node:assert/strict";
import { join } from "node:path";
import type { GateInput, ToolContext } from "../../../interfaces/tool.ts";
import { approvalGate } from "../../../core/permission/approval.ts";
import {
  DEFAULT_SECURITY_CONFIG,
  parseSecurityConfig,
  securityGate,
} from "../../../core/permission/security.ts";
import { coerceArgs } from "../../../core/tools/dispatch.ts";
import { createSkillHost } from "../../../core/skills/host.ts";
import { discoverSkills } from "../../../core/skills/index.ts";
import { runSkillScript, splitArgs } from "../../../core/tools/run_skill_script.ts";
import { callTool, testContext } from "../../support/tool_context.ts";
import { skillProject } from "../../support/skills.ts";

async function context(dir: string): Promise<ToolContext> {
  const index = await discoverSkills([join(dir, "skills")], () => {});
  return testContext(dir, { skills: await createSkillHost({ index, projectDir: dir }) });
}

/** A gate input built the way the agent builds it: coerced args and the tool's preview. */
async function gateInput(params: Record<string, string>, ctx: ToolContext): Promise<GateInput> {
  const call = { tool: runSkillScript.name, params };
  const coerced = coerceArgs(runSkillScript, call);
  assert.ok(coerced.ok);
  const preview = await runSkillScript.preview!(coerced.args as never, ctx);
  return { call, tool: runSkillScript, args: coerced.args, preview, cwd: ctx.cwd };
}

Deno.test("run_skill_script passes its args to the script and returns the summary and files", async () => {
  await using p = await skillProject();
  const ctx = await context(p.dir);
  const r = await callTool(runSkillScript, {
    name: "brand-kit",
    script: "make_notes.py",
    args: '"Launch day"',
  }, ctx);
  assert.ok(r.ok, r.output);
  assert.match(await Deno.readTextFile(join(p.dir, "build", "notes.md")), /^# Launch day\n/);
  assert.match(r.output, /Files produced: build\/notes\.md/);
  assert.doesNotMatch(r.output, /SOURCE-MARKER/);
  assert.match(r.display, /^scripts\/make_notes\.py: ok, 1 file\(s\) produced/);
  const none = await callTool(
    runSkillScript,
    { name: "brand-kit", script: "x.py" },
    testContext(p.dir),
  );
  assert.equal(none.code, "no_skills");
});

Deno.test("splitArgs() reads a JSON array or quoted words and rejects an open quote", () => {
  assert.deepEqual(splitArgs('["a b", "c", 3]'), { ok: true, words: ["a b", "c", "3"] });
  assert.deepEqual(splitArgs(`--title "Q3 review" 'it''s' x`), {
    ok: true,
    words: ["--title", "Q3 review", "its", "x"],
  });
  assert.deepEqual(splitArgs(`"" $HOME`), { ok: true, words: ["", "$HOME"] });
  assert.deepEqual(splitArgs("  "), { ok: true, words: [] });
  const open = splitArgs('--title "Q3');
  assert.ok(!open.ok && /Unterminated " quote/.test(open.message));
});

Deno.test("the security gate judges run_skill_script by its previewed command line", async () => {
  await using p = await skillProject();
  const ctx = await context(p.dir);
  const input = await gateInput({ name: "brand-kit", script: "make_notes.py", args: "Q3" }, ctx);
  const gate = securityGate({
    cwd: p.dir,
    home: "/home/dev",
    shell: "bash",
    config: DEFAULT_SECURITY_CONFIG,
  });
  assert.deepEqual(await gate.check(input), { gate: "security", action: "pass", risk: "low" });
  const strict = parseSecurityConfig({
    block: [{ id: "no-python", pattern: "python3 *", reason: "No Python here" }],
  }, "test");
  assert.ok(strict.ok);
  const blocked = await securityGate({
    cwd: p.dir,
    home: "/home/dev",
    shell: "bash",
    config: strict.config,
  })
    .check(input);
  assert.equal(blocked.action, "deny");
  assert.equal(blocked.rule, "no-python");
  const other = { ...input, preview: { kind: "none" as const } };
  assert.deepEqual(await gate.check(other), { gate: "security", action: "pass" });
});

Deno.test("the approval gate asks the first time a skill's script runs; allow always covers that skill only", async () => {
  await using p = await skillProject();
  const ctx = await context(p.dir);
  const gate = approvalGate({ projectDir: p.dir });
  const notes = await gateInput({ name: "brand-kit", script: "make_notes.py" }, ctx);
  const first = await gate.check(notes);
  assert.equal(first.action, "ask");
  assert.equal(first.rule, "default: exec tools ask");
  const proposal = gate.propose(notes);
  assert.deepEqual(proposal.variants[0].patterns, ["brand-kit"]);
  assert.match(
    gate.remember(notes),
    /allow run_skill_script: brand-kit \(this project\), for this session only/,
  );
  const again = await gate.check(
    await gateInput({ name: "brand-kit", script: "make_notes.py", args: "x" }, ctx),
  );
  assert.equal(again.action, "pass");
  assert.match(again.rule ?? "", /allow run_skill_script: brand-kit/);
  const lab = await gate.check(await gateInput({ name: "sandbox-lab", script: "write.sh" }, ctx));
  assert.equal(lab.action, "ask");
});
