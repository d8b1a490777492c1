import assert from "node:assert/strict";
import { join } from "node:path";
import type { AnyTool, GateInput } from "../../../interfaces/tool.ts";
import { type ActiveSkill, skillToolsGate } from "../../../core/permission/skill_tools_gate.ts";
import { readGrant, readGrants, splitEntries } from "../../../core/permission/skill_tools.ts";
import { modeGate } from "../../../core/permission/mode_gate.ts";
import { approvalGate } from "../../../core/permission/approval.ts";
import { Pipeline } from "../../../core/permission/pipeline.ts";
import { coerceArgs } from "../../../core/tools/dispatch.ts";
import { findTool, workflowTools } from "../../../core/tools/mod.ts";
import { applyEditBlocks } from "../../../core/tools/apply_edit_blocks.ts";
import { createSkillHost } from "../../../core/skills/host.ts";
import { discoverSkills } from "../../../core/skills/index.ts";
import { makeTree, withTempDir } from "../../support/tool_context.ts";

const PROJECT = join("/", "work", "proj");

function tool(name: string): AnyTool {
  const found = findTool(name) ?? workflowTools.find((t) => t.name === name) ??
    (name === applyEditBlocks.name ? applyEditBlocks : undefined);
  if (!found) throw new Error(`no tool "${name}"`);
  return found;
}

/** A call as the pipeline sees it: parsed parameters, coerced and validated. */
function input(name: string, params: Record<string, string> = {}): GateInput {
  const t = tool(name);
  const coerced = coerceArgs(t, { tool: name, params });
  if (!coerced.ok) throw new Error(coerced.message);
  return {
    call: { tool: name, params },
    tool: t,
    args: coerced.args,
    preview: { kind: "none" },
    cwd: PROJECT,
  };
}

function gateFor(skill: ActiveSkill | undefined) {
  return skillToolsGate(() => skill);
}

async function action(
  skill: ActiveSkill | undefined,
  name: string,
  params?: Record<string, string>,
) {
  return (await gateFor(skill).check(input(name, params))).action;
}

const releaseCheck: ActiveSkill = {
  name: "release-check",
  allowedTools: ["read_file", "search_files", "execute_command(git *)"],
};

Deno.test("skillToolsGate() denies a tool outside allowed-tools, naming the skill, the tool and the list", async () => {
  const v = await gateFor(releaseCheck).check(input("list_files", { path: "." }));
  assert.equal(v.action, "deny");
  assert.equal(v.gate, "skill");
  assert.equal(
    v.reason,
    'Skill "release-check" allows only read_file, search_files, execute_command(git *) while it ' +
      "is in use; list_files is not among them. Finish with attempt_completion or switch skills " +
      "with use_skill.",
  );
  assert.equal(v.rule, 'allowed-tools of skill "release-check"');
});

Deno.test("skillToolsGate() passes listed tools and commands matching their pattern, per command segment", async () => {
  assert.equal(await action(releaseCheck, "read_file", { path: "README.md" }), "pass");
  assert.equal(await action(releaseCheck, "search_files", { path: ".", pattern: "TODO" }), "pass");
  assert.equal(await action(releaseCheck, "execute_command", { command: "git status" }), "pass");
  assert.equal(await action(releaseCheck, "execute_command", { command: "git" }), "pass");
  const npm = await gateFor(releaseCheck).check(input("execute_command", { command: "npm test" }));
  assert.equal(npm.action, "deny");
  assert.match(npm.reason!, /; execute_command "npm test" is not among them\. /);
  assert.equal(
    await action(releaseCheck, "execute_command", { command: "git status && rm -rf build" }),
    "deny",
  );
  assert.equal(
    await action(releaseCheck, "execute_command", { command: "git log $(rm x)" }),
    "deny",
  );
  assert.equal(await action(releaseCheck, "start_process", { command: "git fetch" }), "deny");
  assert.equal(await action(releaseCheck, "write_to_file", { path: "a", content: "x" }), "deny");
});

Deno.test("readGrant() maps Claude Code's tool names to minoc's", () => {
  const tools = (entry: string) => readGrant(entry).tools;
  assert.deepEqual(tools("Read"), ["read_file", "read_files", "bridge_request"]);
  assert.deepEqual(tools("Write"), ["write_to_file", "create_directory"]);
  assert.deepEqual(tools("Edit"), ["edit_file", "replace_in_file", "apply_edit_blocks"]);
  assert.deepEqual(tools("MultiEdit"), ["edit_file", "replace_in_file", "apply_edit_blocks"]);
  assert.deepEqual(tools("Glob"), ["list_files"]);
  assert.deepEqual(tools("LS"), ["list_files"]);
  assert.deepEqual(tools("Grep"), ["search_files"]);
  assert.deepEqual(tools("Bash"), [
    "execute_command",
    "start_process",
    "read_process_output",
    "kill_process",
    "list_processes",
  ]);
  assert.deepEqual(readGrant("Bash(git:*)"), {
    source: "Bash(git:*)",
    tools: ["execute_command", "start_process"],
    pattern: "git *",
  });
  assert.deepEqual(readGrant("execute_command(npm test:*)").pattern, "npm test *");
  assert.deepEqual(tools("edit_file"), ["edit_file"]);
  assert.deepEqual(tools("WebFetch"), []);
  assert.deepEqual(tools("Bash(git"), []);
});

Deno.test("splitEntries() splits at commas and spaces but keeps a pattern with spaces whole", () => {
  assert.deepEqual(splitEntries(["Read, Grep Glob", "Bash(git status:*)", "Bash (npm test)"]), [
    "Read",
    "Grep",
    "Glob",
    "Bash(git status:*)",
    "Bash(npm test)",
  ]);
  assert.deepEqual(readGrants(["Read Bash(npm run test:*)"]).map((g) => g.pattern), [
    undefined,
    "npm run test *",
  ]);
});

Deno.test("skillToolsGate() applies Claude Code's names, Bash(git:*) included", async () => {
  const claude: ActiveSkill = { name: "claude-style", allowedTools: ["Read, Grep", "Bash(git:*)"] };
  assert.equal(await action(claude, "read_file", { path: "a.ts" }), "pass");
  assert.equal(await action(claude, "read_files", { path: "a.ts" }), "pass");
  assert.equal(await action(claude, "search_files", { path: ".", pattern: "x" }), "pass");
  assert.equal(await action(claude, "list_files", { path: "." }), "deny");
  assert.equal(await action(claude, "execute_command", { command: "git log --oneline" }), "pass");
  assert.equal(await action(claude, "start_process", { command: "git fetch origin" }), "pass");
  assert.equal(await action(claude, "execute_command", { command: "gitk --all" }), "deny");
  assert.equal(await action(claude, "execute_command", { command: "env git status" }), "deny");
  assert.equal(await action(claude, "list_processes"), "deny");
  const v = await gateFor(claude).check(input("write_to_file", { path: "a", content: "x" }));
  assert.match(
    v.reason!,
    /allows only read_file, read_files, bridge_request, search_files, execute_command\(git \*\), start_process\(git \*\) while/,
  );

  const editing: ActiveSkill = { name: "editing", allowedTools: ["Edit Write(docs/**)"] };
  assert.equal(
    await action(editing, "edit_file", { path: "src/a.ts", old: "a", new: "b" }),
    "pass",
  );
  assert.equal(await action(editing, "apply_edit_blocks", { blocks: "x" }), "pass");
  assert.equal(await action(editing, "write_to_file", { path: "docs/a.md", content: "x" }), "pass");
  assert.equal(await action(editing, "write_to_file", { path: "src/a.ts", content: "x" }), "deny");
  assert.equal(await action(editing, "delete_file", { path: "docs/a.md" }), "deny");
});

Deno.test("skillToolsGate() always lets the model finish, ask, switch skills and run the skill's own scripts", async () => {
  const narrow: ActiveSkill = { name: "release-check", allowedTools: ["Read"] };
  assert.equal(await action(narrow, "use_skill", { name: "other-skill" }), "pass");
  assert.equal(await action(narrow, "attempt_completion", { result: "done" }), "pass");
  assert.equal(await action(narrow, "ask_followup_question", { question: "which?" }), "pass");
  assert.equal(await action(narrow, "blackboard_get"), "pass");
  assert.equal(
    await action(narrow, "blackboard_put", { key: "k", kind: "note", summary: "s" }),
    "pass",
  );
  assert.equal(
    await action(narrow, "run_skill_script", { name: "release-check", script: "check.sh" }),
    "pass",
  );
  const other = await gateFor(narrow).check(
    input("run_skill_script", { name: "other-skill", script: "x.sh" }),
  );
  assert.equal(other.action, "deny");
  assert.match(other.reason!, /; run_skill_script for skill "other-skill" is not among them\. /);
});

Deno.test("skillToolsGate() restricts nothing without a skill in use or without allowed-tools", async () => {
  assert.equal(await action(undefined, "list_files", { path: "." }), "pass");
  assert.equal(await action(undefined, "execute_command", { command: "npm test" }), "pass");
  const open: ActiveSkill = { name: "open", allowedTools: [] };
  assert.equal(await action(open, "write_to_file", { path: "a", content: "x" }), "pass");
});

Deno.test("skillToolsGate() never matches unknown names and says the list holds no minoc tool", async () => {
  const web: ActiveSkill = { name: "web", allowedTools: ["WebFetch", "Task"] };
  const v = await gateFor(web).check(input("read_file", { path: "a" }));
  assert.equal(v.action, "deny");
  assert.match(
    v.reason!,
    /^Skill "web" allows none of minoc's tools \(allowed-tools: WebFetch, Task\) while it is in use; read_file is not among them\./,
  );
});

Deno.test("skillToolsGate() never grants: a listed tool is still refused by the mode gate and still needs approval", async () => {
  const skill: ActiveSkill = { name: "writer", allowedTools: ["Write", "Bash"] };
  const plan = new Pipeline({
    gates: [modeGate(() => "plan"), gateFor(skill)],
    confirm: null,
    autoApprove: false,
  });
  const write = await plan.decide(input("write_to_file", { path: "a", content: "x" }));
  assert.equal(write.action, "deny");
  assert.match(write.reason, /plan mode is read-only/);
  const agent = new Pipeline({
    gates: [modeGate(() => "agent"), gateFor(skill), approvalGate({ projectDir: PROJECT })],
    confirm: null,
    autoApprove: false,
  });
  const run = await agent.decide(input("execute_command", { command: "make deploy" }));
  assert.equal(run.action, "deny");
  assert.match(run.reason, /needs approval/);
  assert.deepEqual(run.verdicts.find((v) => v.gate === "skill")?.action, "pass");
});

Deno.test("skillToolsGate() follows the skill host: in use after use_skill, free after release()", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, {
      "skills/release-check/SKILL.md":
        "---\nname: release-check\ndescription: Checks a release.\n" +
        "allowed-tools: Read, Bash(git:*)\n---\n# Release check\n\nRead the changelog.\n",
      "skills/plain/SKILL.md": "---\nname: plain\ndescription: No restriction.\n---\n# Plain\n",
    });
    const index = await discoverSkills([join(dir, "skills")], () => {});
    const host = await createSkillHost({ index, projectDir: dir });
    const gate = skillToolsGate(() => host.active());
    const list = { ...input("list_files", { path: "." }), cwd: dir };
    assert.equal(host.active(), undefined);
    assert.equal((await gate.check(list)).action, "pass");

    const unknown = await host.disclose({ name: "missing" });
    assert.equal(unknown.ok, false);
    assert.equal(host.active(), undefined);

    assert.equal((await host.disclose({ name: "release-check" })).ok, true);
    assert.equal(host.active()?.name, "release-check");
    assert.equal((await gate.check(list)).action, "deny");

    assert.equal((await host.disclose({ name: "plain" })).ok, true);
    assert.equal(host.active()?.name, "plain");
    assert.equal((await gate.check(list)).action, "pass");

    await host.disclose({ name: "release-check" });
    host.release();
    assert.equal(host.active(), undefined);
    assert.equal((await gate.check(list)).action, "pass");
  });
});
