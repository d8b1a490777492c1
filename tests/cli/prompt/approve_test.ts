import assert from "node:assert/strict";
import { join } from "node:path";
import { colours } from "../../../cli/ui/colors.ts";
import type { AnyTool, GateInput } from "../../../interfaces/tool.ts";
import { alwaysChoices, describeCall, keptLine, mainChoices } from "../../../cli/prompt/approve.ts";
import { approvalGate } from "../../../core/permission/approval.ts";
import { executeCommand } from "../../../core/tools/execute_command.ts";
import { writeToFile } from "../../../core/tools/write_to_file.ts";
import { withTempDir } from "../../support/tool_context.ts";

const plain = colours(false);

function input(tool: AnyTool, params: Record<string, string>, cwd: string): GateInput {
  return { call: { tool: tool.name, params }, tool, args: params, preview: { kind: "none" }, cwd };
}

Deno.test("`mainChoices()` names the rule Allow always would store", async () => {
  await withTempDir(async (project) => {
    const gate = approvalGate({ projectDir: project });
    const call = input(executeCommand, { command: "npm test -- --watch" }, project);
    await gate.check(call);
    const choices = mainChoices(call, gate.propose(call));
    assert.deepEqual(choices.map((c) => c.name), [
      "Allow once",
      "Allow always…",
      "Deny",
      "Deny with a reason",
    ]);
    assert.equal(
      choices[1].description,
      `Stores allow execute_command: npm test * (this project: ${project}); you pick the pattern and scope next`,
    );
    assert.equal(choices[1].disabled, undefined);
  });
});

Deno.test("`mainChoices()` disables Allow always with the reason when no rule can cover the call", async () => {
  await withTempDir(async (project) => {
    const gate = approvalGate({ projectDir: project });
    const outside = input(writeToFile, { path: "../elsewhere.txt", content: "x" }, project);
    await gate.check(outside);
    const always = mainChoices(outside, gate.propose(outside))[1];
    assert.match(
      always.disabled ?? "",
      /^\(".*elsewhere\.txt" resolves outside the working directory/,
    );
    const redirect = input(executeCommand, { command: "make > log.txt" }, project);
    await gate.check(redirect);
    assert.match(
      mainChoices(redirect, gate.propose(redirect))[1].disabled ?? "",
      /redirection to a file/,
    );
    assert.equal(
      mainChoices(redirect, undefined)[1].name,
      "Allow always (execute_command, this session)",
    );
  });
});

Deno.test("`alwaysChoices()` lists each pattern variant per scope, no bare program everywhere", async () => {
  await withTempDir(async (project) => {
    const gate = approvalGate({ projectDir: project });
    const ls = input(executeCommand, { command: "ls -la" }, project);
    await gate.check(ls);
    const lsChoices = alwaysChoices(gate.propose(ls));
    assert.deepEqual(lsChoices.map((c) => c.name), [
      "ls *   in this project",
      "ls -la   in this project",
      "ls -la   everywhere",
      "Allow once only, store nothing",
    ]);
    assert.equal(
      lsChoices[0].description,
      `Stores allow execute_command: ls * (this project: ${project}); uses that run code, ` +
        "delete or write through their arguments (find -exec, sed -i, python -c, git -c …) still ask",
    );
    assert.deepEqual(lsChoices[2].value, { patterns: ["ls -la"], scope: "everywhere" });
    assert.equal(lsChoices[3].value, null);
  });
});

Deno.test("`alwaysChoices()` offers the exact file and its directory globs", async () => {
  await withTempDir(async (project) => {
    const gate = approvalGate({ projectDir: project });
    const call = input(writeToFile, { path: "src/ui/app.ts", content: "x" }, project);
    await gate.check(call);
    const names = alwaysChoices(gate.propose(call)).map((c) => c.name);
    assert.deepEqual(names, [
      "src/ui/app.ts   in this project",
      "src/ui/app.ts   everywhere",
      "src/ui/**   in this project",
      "src/ui/**   everywhere",
      "src/**   in this project",
      "src/**   everywhere",
      "Allow once only, store nothing",
    ]);
  });
});

Deno.test("`keptLine()` says where the rule went, or why it holds for this session only", () => {
  const rule = {
    id: "p-abc123",
    tool: "execute_command",
    pattern: "npm test *",
    action: "allow" as const,
    scope: join("/", "repo"),
    createdAt: "2025-01-01T00:00:00.000Z",
  };
  assert.equal(
    keptLine({ rules: [rule], saved: true }, join("/", "repo"), plain),
    "  Saved rule p-abc123 allow execute_command: npm test * (this project)",
  );
  assert.equal(
    keptLine(
      { rules: [rule], saved: false, error: 'Cannot read "x": broken' },
      join("/", "repo"),
      plain,
    ),
    '  Rule p-abc123 allow execute_command: npm test * (this project): could not save it: Cannot read "x": broken; it holds until minoc exits',
  );
});

Deno.test("`describeCall()` shows the parameters, why it asks and the command", () => {
  const call: GateInput = {
    ...input(executeCommand, { command: "git push --force" }, "/repo"),
    preview: { kind: "exec", command: "git push --force", cwd: "/repo" },
  };
  const text = describeCall(call, [
    { gate: "security", action: "ask", risk: "high", reason: "rewrites remote history" },
    { gate: "approval", action: "pass" },
  ], plain);
  assert.equal(
    text,
    "execute_command\n  command: git push --force\n  security [high]: rewrites remote history\n  in /repo\n  $ git push --force",
  );
});
