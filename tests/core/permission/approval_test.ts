import assert from "node:assert/strict";
import { join } from "node:path";
import type { AnyTool, Confirm, Decision, GateInput } from "../../../interfaces/tool.ts";
import { approvalGate } from "../../../core/permission/approval.ts";
import { Pipeline } from "../../../core/permission/pipeline.ts";
import { parseRuleFlag, type RuleDraft } from "../../../core/permission/rules.ts";
import { addRules, loadRules, permissionsPath } from "../../../core/permission/rules_store.ts";
import { executeCommand } from "../../../core/tools/execute_command.ts";
import { readFile } from "../../../core/tools/read_file.ts";
import { writeToFile } from "../../../core/tools/write_to_file.ts";
import { withTempDir } from "../../support/tool_context.ts";

function input(tool: AnyTool, params: Record<string, string>, cwd: string): GateInput {
  return { call: { tool: tool.name, params }, tool, args: params, preview: { kind: "none" }, cwd };
}

/** A home and a project side by side in one temp dir. */
async function setup(root: string, drafts: RuleDraft[] = []) {
  const home = join(root, "home");
  const project = join(root, "project");
  await Deno.mkdir(join(project, "src"), { recursive: true });
  await Deno.mkdir(home);
  const added = drafts.length
    ? await addRules(permissionsPath(home), drafts)
    : { ok: true as const, rules: [] };
  assert.ok(added.ok);
  return { home, project, rules: added.rules };
}

const allow = (tool: string, pattern: string, scope: string): RuleDraft => ({
  tool,
  pattern,
  action: "allow",
  scope,
});

Deno.test("`approvalGate()` denies with the rule id when a saved deny rule matches", async () => {
  await withTempDir(async (root) => {
    const { home, project, rules } = await setup(root, [
      { tool: "execute_command", pattern: "npm publish *", action: "deny", scope: "*" },
    ]);
    const gate = approvalGate({ projectDir: project, homeDir: home });
    const v = await gate.check(
      input(executeCommand, { command: "npm publish --tag next" }, project),
    );
    assert.equal(v.action, "deny");
    assert.match(
      v.rule ?? "",
      new RegExp(`^${rules[0].id} \\(deny execute_command: npm publish \\*\\)$`),
    );
  });
});

Deno.test("`approvalGate()` passes a call a saved allow rule covers and asks for others", async () => {
  await withTempDir(async (root) => {
    const { home, project, rules } = await setup(root, [
      allow("execute_command", "npm test *", join(root, "project")),
    ]);
    const gate = approvalGate({ projectDir: project, homeDir: home });
    const ok = await gate.check(input(executeCommand, { command: "npm test -- --watch" }, project));
    assert.equal(ok.action, "pass");
    assert.match(ok.rule ?? "", new RegExp(`^${rules[0].id} `));
    const other = await gate.check(
      input(executeCommand, { command: "npm install left-pad" }, project),
    );
    assert.equal(other.action, "ask");
    const elsewhere = approvalGate({ projectDir: join(root, "other"), homeDir: home });
    const there = await elsewhere.check(
      input(executeCommand, { command: "npm test" }, join(root, "other")),
    );
    assert.equal(there.action, "ask", "a project-scoped rule must not apply in another project");
  });
});

Deno.test("`approvalGate()` asks for writes to .git/ and .env despite an allow rule for everything", async () => {
  await withTempDir(async (root) => {
    const { home, project } = await setup(root, [allow("write_to_file", "**", "*")]);
    const gate = approvalGate({ projectDir: project, homeDir: home });
    const normal = await gate.check(input(writeToFile, { path: "src/a.ts", content: "" }, project));
    assert.equal(normal.action, "pass");
    for (const path of [".git/config", ".env", "config/.env.production"]) {
      const v = await gate.check(input(writeToFile, { path, content: "" }, project));
      assert.equal(v.action, "ask", path);
      assert.equal(v.rule, "paths guard: protected path");
    }
  });
});

Deno.test("`approvalGate()` asks for paths escaping through a symlink or .. whatever the rules", async () => {
  await withTempDir(async (root) => {
    const { home, project } = await setup(root, [
      allow("write_to_file", "**", "*"),
      allow("write_to_file", join(root, "**"), "*"),
    ]);
    await Deno.mkdir(join(root, "outside"));
    await Deno.symlink(join(root, "outside"), join(project, "src", "out"));
    const gate = approvalGate({ projectDir: project, homeDir: home });
    for (const path of ["src/out/x.ts", "../outside/x.ts", join(root, "outside", "y.ts")]) {
      const call = input(writeToFile, { path, content: "" }, project);
      const v = await gate.check(call);
      assert.equal(v.action, "ask", path);
      assert.equal(v.rule, "paths guard: outside the working directory");
      assert.deepEqual(
        gate.propose(call).variants,
        [],
        "no rule is offered for a path that asks every time",
      );
    }
    const read = await gate.check(input(readFile, { path: "src/out/x.ts" }, project));
    assert.equal(read.action, "ask", "reading outside the working directory asks too");
    const inside = await gate.check(input(readFile, { path: "src/a.ts" }, project));
    assert.equal(inside.action, "pass");
  });
});

Deno.test("`approvalGate()` asks when the model sets requires_approval, even with an allow rule", async () => {
  await withTempDir(async (root) => {
    const { home, project } = await setup(root, [allow("execute_command", "ls *", "*")]);
    const gate = approvalGate({ projectDir: project, homeDir: home });
    const v = await gate.check(
      input(executeCommand, { command: "ls", requires_approval: "true" }, project),
    );
    assert.equal(v.action, "ask");
    assert.equal(v.reason, "the model asked for approval");
  });
});

Deno.test("`Pipeline` in run mode runs a call --allow covers, denies what --deny covers, denies the rest", async () => {
  await withTempDir(async (root) => {
    const { home, project } = await setup(root);
    const flag = (text: string, action: "allow" | "deny") => {
      const r = parseRuleFlag(text, action);
      if (!r.ok) throw new Error(r.message);
      return r.rule;
    };
    const extraRules = [
      flag("execute_command:npm test *", "allow"),
      flag("execute_command:npm test --bail", "deny"),
    ];
    const pipeline = new Pipeline({
      gates: [approvalGate({ projectDir: project, homeDir: home, extraRules })],
      confirm: null,
      autoApprove: false,
    });
    const run = await pipeline.decide(input(executeCommand, { command: "npm test" }, project));
    assert.equal(run.action, "run");
    assert.match(run.allowedBy ?? "", /--allow \(allow execute_command: npm test \*\)/);
    const denied = await pipeline.decide(
      input(executeCommand, { command: "npm test --bail" }, project),
    );
    assert.equal(denied.action, "deny");
    assert.match(denied.reason, /--deny/);
    const other = await pipeline.decide(input(executeCommand, { command: "npm ci" }, project));
    assert.equal(other.action, "deny");
    assert.match(other.reason, /nobody can approve it here/);
  });
});

Deno.test("`approvalGate()` stores the rule the prompt picked, and another gate sees it", async () => {
  await withTempDir(async (root) => {
    const { home, project } = await setup(root);
    const gate = approvalGate({ projectDir: project, homeDir: home });
    const confirm: Confirm = {
      async ask(i: GateInput): Promise<Decision> {
        const p = gate.propose(i);
        assert.deepEqual(p.variants[0].patterns, ["git status *"]);
        const kept = await gate.keep(i, { patterns: p.variants[0].patterns, scope: "everywhere" });
        assert.equal(kept.saved, true);
        return { kind: "always" };
      },
    };
    const pipeline = new Pipeline({ gates: [gate], confirm, autoApprove: false });
    const first = await pipeline.decide(
      input(executeCommand, { command: "git status -s" }, project),
    );
    assert.equal(first.action, "run");
    assert.match(
      first.allowedBy ?? "",
      /allow always \(p-[0-9a-f]{6} allow execute_command: git status \* \(everywhere\)\)/,
    );
    const saved = await loadRules(permissionsPath(home));
    assert.ok(saved.ok);
    assert.deepEqual(saved.rules.map((r) => [r.tool, r.pattern, r.scope]), [[
      "execute_command",
      "git status *",
      "*",
    ]]);
    const later = approvalGate({ projectDir: join(root, "elsewhere"), homeDir: home });
    const v = await later.check(
      input(executeCommand, { command: "git status" }, join(root, "elsewhere")),
    );
    assert.equal(v.action, "pass");
  });
});

Deno.test("`approvalGate()` warns once about a corrupt permissions.json, leaves it alone and keeps rules for the session", async () => {
  await withTempDir(async (root) => {
    const { home, project } = await setup(root);
    const file = permissionsPath(home);
    await Deno.mkdir(join(home, "config"));
    await Deno.writeTextFile(file, "{ not json");
    const warnings: string[] = [];
    const gate = approvalGate({
      projectDir: project,
      homeDir: home,
      onWarning: (m) => warnings.push(m),
    });
    const call = input(executeCommand, { command: "make build" }, project);
    assert.equal((await gate.check(call)).action, "ask");
    assert.equal((await gate.check(call)).action, "ask");
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], new RegExp(`Cannot read "${file}": not valid JSON`));
    const kept = await gate.keep(call, { patterns: ["make build *"], scope: "project" });
    assert.equal(kept.saved, false);
    assert.match(kept.error ?? "", /not valid JSON/);
    assert.match(gate.remember(call), /for this session only/);
    assert.equal(
      (await gate.check(input(executeCommand, { command: "make build" }, project))).action,
      "pass",
    );
    assert.equal(await Deno.readTextFile(file), "{ not json");
  });
});

Deno.test("`approvalGate()` with no options remembers allow-always for the session only", async () => {
  await withTempDir(async (project) => {
    const gate = approvalGate();
    const call = input(executeCommand, { command: "npm test" }, project);
    assert.equal((await gate.check(call)).action, "ask");
    assert.match(
      gate.remember(call),
      /^s-[0-9a-f]{6} allow execute_command: npm test \* \(this project\), for this session only$/,
    );
    assert.equal(
      (await gate.check(input(executeCommand, { command: "npm test x" }, project))).action,
      "pass",
    );
    assert.equal(
      (await gate.check(input(executeCommand, { command: "npm ci" }, project))).action,
      "ask",
    );
  });
});

Deno.test("`approvalGate()` finds a project rule when the project is reached through a symlink", async () => {
  await withTempDir(async (root) => {
    const { home, project } = await setup(root, [
      allow("execute_command", "make *", join(root, "project")),
    ]);
    await Deno.symlink(project, join(root, "via"));
    const via = join(root, "via");
    const gate = approvalGate({ projectDir: via, homeDir: home });
    const call = input(executeCommand, { command: "make all" }, via);
    assert.equal((await gate.check(call)).action, "pass");
    const make = input(executeCommand, { command: "cargo build" }, via);
    await gate.check(make);
    const kept = await gate.keep(make, { patterns: ["cargo build *"], scope: "project" });
    assert.equal(kept.rules[0].scope, project, "rules are stored under the project's real path");
  });
});
