import assert from "node:assert/strict";
import { join } from "node:path";
import type { AnyTool } from "../../../interfaces/tool.ts";
import { callSubject } from "../../../core/permission/rules.ts";
import { narrowPattern, proposeRules } from "../../../core/permission/rules_propose.ts";
import { matchWords, splitCommand } from "../../../core/permission/rules_match.ts";
import { executeCommand } from "../../../core/tools/execute_command.ts";
import { writeToFile } from "../../../core/tools/write_to_file.ts";
import { setEnv } from "../../../core/tools/set_env.ts";

const PROJECT = join("/", "work", "proj");

function propose(tool: AnyTool, params: Record<string, string>) {
  const subject = callSubject(
    { call: { tool: tool.name, params }, tool, args: params, cwd: PROJECT },
    PROJECT,
  );
  return proposeRules(tool.name, subject);
}

function words(command: string): string[] {
  const r = splitCommand(command);
  if (!r.ok) throw new Error(r.reason);
  return r.segments[0];
}

Deno.test("`narrowPattern()` keeps the head and its sub-command, never the bare program", () => {
  const cases: [string, string][] = [
    ["npm test", "npm test *"],
    ["npm test -- --watch", "npm test *"],
    ["git status -s", "git status *"],
    ["npm run build --prod", "npm run build *"],
    ["docker compose up -d", "docker compose up *"],
    ["ls -la src", "ls *"],
    ["python3 app.py --port 3", "python3 app.py *"],
    ["python -m pytest -x", "python -m pytest *"],
    ["python -c 'print(1)'", "python -c 'print(1)'"],
    ["git -C sub status", "git -C sub status"],
    ["git", "git"],
    ["CI=1 npm test", "CI=1 npm test *"],
    ["/usr/bin/git log", "/usr/bin/git log *"],
  ];
  for (const [command, want] of cases) assert.equal(narrowPattern(words(command)), want, command);
});

Deno.test("`narrowPattern()` gives a pattern that matches the command it came from", () => {
  for (
    const command of [
      "npm test",
      "git commit -m 'it''s done'",
      "python -c 'a b'",
      "ls",
      'echo "a b" c',
    ]
  ) {
    assert.equal(matchWords(narrowPattern(words(command)), words(command)), true, command);
  }
});

Deno.test("`proposeRules()` offers the narrow pattern and the exact command for a command", () => {
  const p = propose(executeCommand, { command: "npm test -- --watch" });
  assert.deepEqual(p.variants, [
    { patterns: ["npm test *"], everywhere: true },
    { patterns: ["npm test -- --watch"], everywhere: true },
  ]);
  const ls = propose(executeCommand, { command: "ls -la" });
  assert.deepEqual(ls.variants[0], { patterns: ["ls *"], everywhere: false });
  const both = propose(executeCommand, { command: "npm test && git status" });
  assert.deepEqual(both.variants[0].patterns, ["npm test *", "git status *"]);
});

Deno.test("`proposeRules()` offers nothing for a command a rule cannot match", () => {
  const p = propose(executeCommand, { command: "npm test > out.txt" });
  assert.deepEqual(p.variants, []);
  assert.match(
    p.unavailable ?? "",
    /^a rule cannot match this command: it uses a redirection to a file$/,
  );
});

Deno.test("`proposeRules()` offers the exact path and the directory globs for a file", () => {
  const p = propose(writeToFile, { path: "src/components/x.tsx", content: "" });
  assert.deepEqual(p.variants.map((v) => v.patterns), [
    ["src/components/x.tsx"],
    ["src/components/**"],
    ["src/**"],
  ]);
  const top = propose(writeToFile, { path: "README.md", content: "" });
  assert.deepEqual(top.variants.map((v) => v.patterns), [["README.md"]]);
  const out = propose(writeToFile, { path: "../x.md", content: "" });
  assert.deepEqual(out.variants, []);
});

Deno.test("`proposeRules()` offers the exact value or * (this project only) for other tools", () => {
  const p = propose(setEnv, { name: "NODE_ENV", value: "test" });
  assert.deepEqual(p.variants, [
    { patterns: ["NODE_ENV"], everywhere: true },
    { patterns: ["*"], everywhere: false },
  ]);
});
