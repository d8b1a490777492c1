import assert from "node:assert/strict";
import { join } from "node:path";
import type { AnyTool, GateInput } from "../../../interfaces/tool.ts";
import {
  callSubject,
  evaluateRules,
  parseRuleFlag,
  type PermissionRule,
  type RuleDraft,
} from "../../../core/permission/rules.ts";
import { matchGlob, matchWords, splitCommand } from "../../../core/permission/rules_match.ts";
import { executeCommand } from "../../../core/tools/execute_command.ts";
import { writeToFile } from "../../../core/tools/write_to_file.ts";
import { readFiles } from "../../../core/tools/read_files.ts";

const PROJECT = join("/", "work", "proj");

function rule(d: Partial<RuleDraft> & { pattern: string }, id = "p-1"): PermissionRule {
  return {
    id,
    tool: "execute_command",
    action: "allow",
    scope: PROJECT,
    createdAt: "2025-01-01T00:00:00.000Z",
    ...d,
  };
}

function input(tool: AnyTool, params: Record<string, string | string[]>, cwd = PROJECT): GateInput {
  return { call: { tool: tool.name, params }, tool, args: params, preview: { kind: "none" }, cwd };
}

function check(rules: PermissionRule[], tool: AnyTool, params: Record<string, string | string[]>) {
  return evaluateRules(rules, tool.name, callSubject(input(tool, params), PROJECT), PROJECT);
}

Deno.test("`splitCommand()` splits at operators and keeps quoted words whole", () => {
  assert.deepEqual(splitCommand(`git commit -m "fix: a && b" && npm test; ls|wc -l`), {
    ok: true,
    segments: [["git", "commit", "-m", "fix: a && b"], ["npm", "test"], ["ls"], ["wc", "-l"]],
  });
  assert.deepEqual(splitCommand("echo 'it'\\''s' x\\ y"), {
    ok: true,
    segments: [["echo", "it's", "x y"]],
  });
});

Deno.test("`splitCommand()` drops harmless redirections and refuses the others", () => {
  assert.deepEqual(splitCommand("npm test 2>&1 >/dev/null"), {
    ok: true,
    segments: [["npm", "test"]],
  });
  assert.deepEqual(splitCommand("npm test &> /dev/null"), {
    ok: true,
    segments: [["npm", "test"]],
  });
  for (
    const bad of [
      "npm test > out.txt",
      "cat < secret",
      "echo $(id)",
      "echo `id`",
      'echo "$(id)"',
      "(cd x)",
    ]
  ) {
    const r = splitCommand(bad);
    assert.equal(r.ok, false, bad);
  }
  assert.equal(splitCommand("echo 'open").ok, false);
  assert.equal(splitCommand("{ ls; }").ok, false);
});

Deno.test("`matchWords()` treats a lone * as any words and * in a word as any characters", () => {
  assert.equal(matchWords("npm test *", ["npm", "test"]), true);
  assert.equal(matchWords("npm test *", ["npm", "test", "--watch", "a"]), true);
  assert.equal(matchWords("npm test *", ["npm", "testx"]), false);
  assert.equal(matchWords("npm test *", ["npm", "run", "test"]), false);
  assert.equal(matchWords("git checkout feature/*", ["git", "checkout", "feature/x"]), true);
  assert.equal(matchWords("git checkout feature/*", ["git", "checkout", "main"]), false);
  assert.equal(matchWords("ls", ["ls", "-la"]), false);
  assert.equal(matchWords("* --version", ["node", "--version"]), true);
});

Deno.test("`matchGlob()` keeps * within a segment and lets ** span segments", () => {
  assert.equal(matchGlob("src/**", "src/a/b.ts"), true);
  assert.equal(matchGlob("src/**", "src"), true);
  assert.equal(matchGlob("src/**", "srcx/a.ts"), false);
  assert.equal(matchGlob("src/*.ts", "src/a.ts"), true);
  assert.equal(matchGlob("src/*.ts", "src/a/b.ts"), false);
  assert.equal(matchGlob("**/*.md", "README.md"), true);
  assert.equal(matchGlob("**/*.md", "docs/a/b.md"), true);
  assert.equal(matchGlob("./notes.md", "notes.md"), true);
  assert.equal(matchGlob("a?c", "abc"), true);
  assert.equal(matchGlob("a.c", "abc"), false);
});

Deno.test("`evaluateRules()` allows a compound command only when every segment is allowed", () => {
  const rules = [rule({ pattern: "npm test *" }, "p-1"), rule({ pattern: "git status *" }, "p-2")];
  const both = check(rules, executeCommand, { command: "npm test && git status -s" });
  assert.deepEqual(both.allow?.map((r) => r.id), ["p-1", "p-2"]);
  assert.equal(
    check(rules, executeCommand, { command: "npm test && rm -rf build" }).allow,
    undefined,
  );
  assert.equal(check(rules, executeCommand, { command: "npm test > log.txt" }).allow, undefined);
  assert.equal(check(rules, executeCommand, { command: "npm test $(rm x)" }).allow, undefined);
});

Deno.test("`evaluateRules()` lets a deny rule win, also behind prefixes and inside substitutions", () => {
  const rules = [
    rule({ pattern: "npm *" }, "p-allow"),
    rule({ pattern: "npm publish *", action: "deny" }, "p-deny"),
  ];
  assert.equal(check(rules, executeCommand, { command: "npm publish --tag x" }).deny?.id, "p-deny");
  assert.equal(check(rules, executeCommand, { command: "CI=1 npm publish" }).deny?.id, "p-deny");
  assert.equal(check(rules, executeCommand, { command: "echo $(npm publish)" }).deny?.id, "p-deny");
  assert.deepEqual(check(rules, executeCommand, { command: "npm ci" }).allow?.map((r) => r.id), [
    "p-allow",
  ]);
});

Deno.test("`evaluateRules()` matches file tools by project-relative globs and respects scope", () => {
  const rules = [
    rule({ tool: "write_to_file", pattern: "src/**" }, "p-src"),
    rule({ tool: "write_to_file", pattern: "docs/*.md", scope: "/elsewhere" }, "p-other"),
    rule({ tool: "write_to_file", pattern: "*.lock", scope: "*" }, "p-any"),
  ];
  assert.equal(
    check(rules, writeToFile, { path: "src/a/b.ts", content: "" }).allow?.[0].id,
    "p-src",
  );
  assert.equal(
    check(rules, writeToFile, { path: "./src/../src/x.ts", content: "" }).allow?.[0].id,
    "p-src",
  );
  assert.equal(check(rules, writeToFile, { path: "docs/a.md", content: "" }).allow, undefined);
  assert.equal(
    check(rules, writeToFile, { path: "deno.lock", content: "" }).allow?.[0].id,
    "p-any",
  );
  assert.equal(
    check(rules, writeToFile, { path: "../proj2/src/a.ts", content: "" }).allow,
    undefined,
  );
  const deny = [rule({ tool: "read_files", pattern: "secrets/**", action: "deny" }, "p-secret")];
  assert.equal(check(deny, readFiles, { path: ["a.ts", "secrets/key"] }).deny?.id, "p-secret");
});

Deno.test("`evaluateRules()` needs both the written and the resolved path to match an allow rule", () => {
  const rules = [rule({ tool: "write_to_file", pattern: "src/**" })];
  const subject = callSubject(input(writeToFile, { path: "src/link/x.ts", content: "" }), PROJECT);
  assert.equal(subject.kind, "paths");
  if (subject.kind !== "paths") return;
  subject.paths[0] = {
    ...subject.paths[0],
    real: join(PROJECT, "secrets/x.ts"),
    realRel: "secrets/x.ts",
  };
  assert.equal(evaluateRules(rules, "write_to_file", subject, PROJECT).allow, undefined);
  const deny = [rule({ tool: "write_to_file", pattern: "secrets/**", action: "deny" })];
  assert.equal(evaluateRules(deny, "write_to_file", subject, PROJECT).deny?.id, "p-1");
});

Deno.test("`parseRuleFlag()` reads <tool>:<pattern> for --allow and --deny", () => {
  const allow = parseRuleFlag("execute_command:npm test *");
  assert.ok(allow.ok);
  assert.deepEqual(
    {
      tool: allow.rule.tool,
      pattern: allow.rule.pattern,
      action: allow.rule.action,
      scope: allow.rule.scope,
    },
    { tool: "execute_command", pattern: "npm test *", action: "allow", scope: "*" },
  );
  const deny = parseRuleFlag("write_to_file: C:\\x\\** ", "deny");
  assert.ok(deny.ok);
  assert.equal(deny.rule.pattern, "C:\\x\\**");
  assert.equal(deny.rule.action, "deny");
});

Deno.test("`parseRuleFlag()` names the value and the expected form when the syntax is wrong", () => {
  const cases: [string, RegExp][] = [
    ["npm test", /Invalid --allow "npm test": expected "<tool>:<pattern>"/],
    [":npm test", /"" is not a tool name/],
    ["execute_command:", /Invalid --allow "execute_command:": the pattern is empty/],
    ["execute_command:npm test && rm x", /is not one simple command/],
    ["Run Cmd:x", /"Run Cmd" is not a tool name/],
  ];
  for (const [text, re] of cases) {
    const r = parseRuleFlag(text);
    assert.equal(r.ok, false, text);
    if (!r.ok) assert.match(r.message, re);
  }
  const unknown = parseRuleFlag("exec:ls", "deny", ["execute_command", "write_to_file"]);
  assert.equal(unknown.ok, false);
  if (!unknown.ok) assert.match(unknown.message, /Invalid --deny "exec:ls": unknown tool "exec"/);
});
