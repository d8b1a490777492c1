import assert from "node:assert/strict";
import { join } from "node:path";
import type { Command } from "@commander-js/extra-typings";
import { securityCommand } from "../../../cli/commands/security.ts";
import { CliError, EXIT, memoryIO } from "../../../cli/io.ts";

const HOME = "/home/dev";
const CWD = "/home/dev/project";

async function withConfig(
  content: unknown,
  fn: (configPath: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_security_cli_" });
  const configPath = join(dir, "security.json");
  try {
    if (content !== undefined) await Deno.writeTextFile(configPath, JSON.stringify(content));
    await fn(configPath);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function quiet(cmd: Command, io: ReturnType<typeof memoryIO>): Command {
  const all = (c: Command): Command[] => [c, ...(c.commands as Command[]).flatMap(all)];
  for (const c of all(cmd)) {
    c.exitOverride();
    c.configureOutput({ writeOut: (t) => io.out(t), writeErr: (t) => io.err(t) });
  }
  return cmd;
}

async function run(
  args: string[],
  opts: { stdin?: string; config?: unknown; shell?: "bash" | "powershell" | "cmd" } = {},
) {
  const io = memoryIO(opts.stdin ?? "");
  let error: unknown = null;
  await withConfig(opts.config, async (configPath) => {
    const cmd = quiet(
      securityCommand(io, { cwd: CWD, home: HOME, configPath, shell: opts.shell ?? "bash" }),
      io,
    );
    try {
      await cmd.parseAsync(args, { from: "user" });
    } catch (e) {
      error = e;
    }
  });
  return { io, error };
}

Deno.test("securityCommand() check --json prints the verdict as one JSON object with exit code 0", async () => {
  const { io, error } = await run(["check", "ls && rm -rf ~", "--json"]);
  assert.equal(error, null);
  const v = JSON.parse(io.stdout);
  assert.deepEqual(Object.keys(v), ["verdict", "rule", "risk", "reason", "segment"]);
  assert.deepEqual([v.verdict, v.rule, v.risk, v.segment], [
    "block",
    "delete-protected",
    "critical",
    "rm -rf ~",
  ]);
  assert.equal(io.exitCode, EXIT.ok);
});

Deno.test("securityCommand() check prints a readable verdict with the rule, reason and segment", async () => {
  const block = await run(["check", "sudo ls"]);
  assert.match(block.io.stdout, /^BLOCK {2}critical {2}privilege-escalation\n/);
  assert.match(block.io.stdout, /in: sudo ls/);
  const warn = await run(["check", "git push --force"]);
  assert.match(warn.io.stdout, /^WARN {2}high {2}git-history/);
  const allow = await run(["check", "npm test"]);
  assert.match(allow.io.stdout, /^ALLOW {2}low/);
  assert.equal(allow.io.exitCode, EXIT.ok);
});

Deno.test("securityCommand() check reads the command in the shell given by --shell, else the default", async () => {
  const ps = await run(["check", "ri -r -fo C:\\Windows", "--shell", "powershell", "--json"]);
  assert.equal(JSON.parse(ps.io.stdout).rule, "delete-protected");
  const cmd = await run(["check", "RD /S /Q C:\\", "--json"], { shell: "cmd" });
  assert.equal(JSON.parse(cmd.io.stdout).verdict, "block");
  const bash = await run(["check", "ri -r -fo C:\\Windows", "--json"]);
  assert.equal(JSON.parse(bash.io.stdout).verdict, "allow", "ri is a PowerShell alias only");
});

Deno.test("securityCommand() check rejects an unknown --shell", async () => {
  const { error } = await run(["check", "ls", "--shell", "fish"]);
  assert.equal((error as { code?: string }).code, "commander.invalidArgument");
});

Deno.test("securityCommand() check --batch answers each JSON line with its id and flags bad lines", async () => {
  const stdin = [
    JSON.stringify({ id: 1, command: "curl x | sh" }),
    "",
    JSON.stringify({ id: "b", command: "Remove-Item -Recurse -Force C:\\", shell: "powershell" }),
    "not json",
    JSON.stringify({ id: 4, command: "ls", shell: "zsh" }),
    JSON.stringify({ id: 5, command: "ls" }),
  ].join("\n");
  const { io, error } = await run(["check", "--batch"], { stdin });
  assert.equal(error, null);
  const lines = io.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 5);
  assert.deepEqual(lines.map((l) => l.id), [1, "b", null, 4, 5]);
  assert.deepEqual([lines[0].verdict, lines[0].rule], ["block", "remote-code"]);
  assert.equal(lines[1].rule, "delete-protected");
  assert.match(lines[2].error, /Line 4: not valid JSON/);
  assert.match(lines[3].error, /field "shell" must be one of bash, powershell, cmd, got "zsh"/);
  assert.equal(lines[4].verdict, "allow");
  assert.equal(io.exitCode, EXIT.usage);
});

Deno.test("securityCommand() check without a command is a usage error", async () => {
  const { error } = await run(["check"]);
  assert.ok(error instanceof CliError);
  assert.equal(error.exitCode, EXIT.usage);
  assert.match(error.message, /Give a command to check/);
});

Deno.test("securityCommand() applies security.json and fails with exit code 2 naming the file and field when it is bad", async () => {
  const custom = { block: [{ id: "no-make", pattern: "make *", reason: "No make" }] };
  const ok = await run(["check", "make all", "--json"], { config: custom });
  assert.equal(JSON.parse(ok.io.stdout).rule, "no-make");
  for (const sub of [["check", "ls"], ["rules"]]) {
    const { error } = await run(sub, { config: { block: [{ id: "x", pattern: 1, reason: "r" }] } });
    assert.ok(error instanceof CliError, sub.join(" "));
    assert.equal(error.exitCode, EXIT.usage);
    assert.match(error.message, /security\.json": field "block\[0\]\.pattern" must be a string/);
  }
});

Deno.test("securityCommand() rules lists active rules with ids and marks custom ones", async () => {
  const config = {
    warn: [{ id: "kubectl-apply", pattern: "kubectl apply *", reason: "Changes the cluster" }],
    disabled: ["kill"],
  };
  const { io } = await run(["rules"], { config });
  const lines = io.stdout.trim().split("\n");
  assert.ok(lines.length > 25);
  assert.match(lines[0], /^delete-protected +block +critical +Recursive or forced delete/);
  assert.ok(
    lines.some((l) => /^kubectl-apply +warn +high +Changes the cluster.*\(custom\)$/.test(l)),
  );
  assert.ok(!lines.some((l) => l.startsWith("kill ")));
  const json = await run(["rules", "--json"]);
  const rules = JSON.parse(json.io.stdout) as { id: string; custom: boolean }[];
  assert.ok(rules.some((r) => r.id === "kill" && !r.custom));
});
