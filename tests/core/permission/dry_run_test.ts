import assert from "node:assert/strict";
import { join } from "node:path";
import type { AnyTool, Preview, Verdict } from "../../../interfaces/tool.ts";
import {
  createDryRun,
  describeCommand,
  dryRunGate,
  runsOnOverlay,
} from "../../../core/permission/dry_run.ts";
import { Pipeline } from "../../../core/permission/pipeline.ts";
import { coerceArgs } from "../../../core/tools/dispatch.ts";
import { realFs } from "../../../core/tools/fs_port.ts";
import { findTool, tools } from "../../../core/tools/mod.ts";
import { makeTree, testContext, withTempDir } from "../../support/tool_context.ts";

const tool = (name: string) => findTool(name)!;

function input(name: string, params: Record<string, string>, preview: Preview = { kind: "none" }) {
  const t = tool(name);
  const coerced = coerceArgs(t, { tool: name, params });
  assert.ok(coerced.ok);
  return { call: { tool: name, params }, tool: t, args: coerced.args, preview, cwd: "/p" };
}

Deno.test("`dryRunGate()` passes reads and meta tools and simulates every write and exec tool", () => {
  const gate = dryRunGate();
  const byKind = (t: AnyTool) => gate.check({ ...input("read_file", { path: "a" }), tool: t });
  for (const t of tools) {
    const v = byKind(t) as Verdict;
    const expected = t.kind === "read" || t.kind === "meta" ? "pass" : "simulate";
    assert.equal(v.action, expected, t.name);
    assert.equal(v.gate, "dry-run");
    assert.ok(v.rule, `${t.name} has a rule`);
  }
});

Deno.test("`runsOnOverlay()` holds for file tools and env tools, not for commands or chmod", () => {
  for (const name of ["write_to_file", "edit_file", "delete_file", "create_directory", "set_env"]) {
    assert.equal(runsOnOverlay(tool(name)), true, name);
  }
  for (const name of ["execute_command", "start_process", "kill_process", "chmod"]) {
    assert.equal(runsOnOverlay(tool(name)), false, name);
  }
});

Deno.test("`createDryRun().simulate()` writes to the overlay and lists a command it did not run", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "a\n" });
    const dry = createDryRun(realFs);
    const ctx = testContext(dir, { fs: dry.fs });
    const verdicts: Verdict[] = [{ gate: "mode", action: "pass", rule: "agent mode" }];
    const write = input("write_to_file", { path: "b.txt", content: "b\n" });
    const wrote = await dry.simulate({ ...write, ctx, verdicts });
    assert.equal(wrote.ok, true, wrote.output);
    assert.match(wrote.display, /dry run: in memory/);
    assert.equal(await Deno.stat(join(dir, "b.txt")).catch(() => null), null);
    assert.equal(new TextDecoder().decode(await dry.fs.readFile(join(dir, "b.txt"))), "b\n");

    const marker = join(dir, "ran");
    const cmd = input("execute_command", { command: `touch ${marker}` }, {
      kind: "exec",
      command: `touch ${marker}`,
      cwd: dir,
    });
    const ran = await dry.simulate({ ...cmd, ctx, verdicts });
    assert.equal(ran.ok, true);
    assert.equal(ran.code, "simulated");
    assert.match(ran.output, /^Dry run: The command was not run, so there is no output/);
    assert.equal(await Deno.stat(marker).catch(() => null), null, "the command did not run");
    assert.deepEqual(dry.commands(), [
      { tool: "execute_command", command: `touch ${marker}`, cwd: dir, verdicts },
    ]);
  });
});

Deno.test("`describeCommand()` gives the command line, or the tool and its parameters", () => {
  assert.equal(
    describeCommand({ tool: "execute_command", params: { command: "ls" } }, {
      kind: "exec",
      command: "ls -la",
      cwd: "/",
    }),
    "ls -la",
  );
  assert.equal(
    describeCommand({ tool: "chmod", params: { path: "x.sh", mode: "755" } }, { kind: "none" }),
    "chmod path=x.sh mode=755",
  );
});

Deno.test("`Pipeline.decide()` with no approver lets a simulated call pass and says it would ask", async () => {
  const asking = {
    name: "approval",
    check: () => ({ gate: "approval", action: "ask" as const, reason: "writes" }),
  };
  const simulated = new Pipeline({
    gates: [asking, dryRunGate()],
    confirm: null,
    autoApprove: false,
  });
  const d = await simulated.decide(input("write_to_file", { path: "x", content: "y" }));
  assert.equal(d.action, "simulate");
  assert.deepEqual(d.verdicts.at(-1), {
    gate: "approval",
    action: "pass",
    reason: "writes",
    rule: "would ask: the call is only simulated",
  });
  const real = new Pipeline({ gates: [asking], confirm: null, autoApprove: false });
  assert.equal(
    (await real.decide(input("write_to_file", { path: "x", content: "y" }))).action,
    "deny",
  );
});
