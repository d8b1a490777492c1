import assert from "node:assert/strict";
import { checkCommand, listRules, type ShellKind } from "../../../core/permission/security.ts";

interface Case {
  command: string;
  shell: ShellKind;
  verdict: "block" | "warn" | "allow";
  rule?: string;
  note?: string;
}

const DIR = new URL("../../fixtures/security/", import.meta.url);

async function corpus(name: string): Promise<Case[]> {
  const text = await Deno.readTextFile(new URL(name, DIR));
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Case);
}

function where(shell: ShellKind) {
  return shell === "bash"
    ? { cwd: "/home/dev/project", home: "/home/dev" }
    : { cwd: "C:\\Users\\dev\\project", home: "C:\\Users\\dev" };
}

async function mismatches(cases: Case[]): Promise<string[]> {
  const out: string[] = [];
  for (const c of cases) {
    const v = await checkCommand(c.command, { shell: c.shell, ...where(c.shell) });
    const ruleOk = c.verdict === "allow" || v.rule === c.rule;
    if (v.verdict !== c.verdict || !ruleOk) {
      out.push(
        `${c.shell} ${JSON.stringify(c.command)}: want ${c.verdict} ${
          c.rule ?? ""
        }, got ${v.verdict} ${v.rule} (${v.reason})`,
      );
    }
  }
  return out;
}

/** The corpus files; hidden.jsonl holds hidden execution and Windows parity, by family. */
const FILES = ["bash.jsonl", "windows.jsonl", "hidden.jsonl"];

for (const file of FILES) {
  Deno.test(`checkCommand() gives the expected verdict for every command in ${file}`, async () => {
    const cases = await corpus(file);
    const least = file === "hidden.jsonl" ? 100 : 300;
    assert.ok(cases.length >= least, `${file} holds only ${cases.length} cases`);
    const bad = await mismatches(cases);
    assert.deepEqual(
      bad,
      [],
      `${bad.length} of ${cases.length} cases disagree:\n${bad.join("\n")}`,
    );
  });
}

Deno.test("the corpus has block or warn cases for every built-in rule in every file it names", async () => {
  const cases = (await Promise.all(FILES.map(corpus))).flat();
  const covered = new Set(cases.map((c) => c.rule).filter((r) => r !== undefined));
  const ids = listRules().map((r) => r.id);
  const missing = ids.filter((id) => !covered.has(id));
  assert.deepEqual(missing, [], `rules without corpus cases: ${missing.join(", ")}`);
  const unknown = [...covered].filter((id) => !ids.includes(id!));
  assert.deepEqual(unknown, [], `corpus names unknown rules: ${unknown.join(", ")}`);
});

Deno.test("the corpus mixes all three verdicts and all three shells", async () => {
  const cases = (await Promise.all(FILES.map(corpus))).flat();
  for (const verdict of ["block", "warn", "allow"]) {
    assert.ok(cases.filter((c) => c.verdict === verdict).length >= 100, `too few ${verdict} cases`);
  }
  for (const shell of ["bash", "powershell", "cmd"]) {
    assert.ok(cases.filter((c) => c.shell === shell).length >= 80, `too few ${shell} cases`);
  }
});
