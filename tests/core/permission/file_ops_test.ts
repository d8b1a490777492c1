/**
 * The protected paths of the security rules apply to the file tools: the
 * pipeline (with `--yes`) denies writes, deletes and mode changes of system
 * files and home entries, also through a symlink, as it does for commands.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { approvalGate } from "../../../core/permission/approval.ts";
import { Pipeline } from "../../../core/permission/pipeline.ts";
import { securityGate } from "../../../core/permission/security.ts";
import { tools } from "../../../core/tools/mod.ts";
import { applyEditBlocks } from "../../../core/tools/apply_edit_blocks.ts";
import { gateInput } from "../../support/gate_input.ts";
import { withTempDir } from "../../support/tool_context.ts";

/** The registry and the bridge's edit-blocks tool. */
const TOOLS = [...tools, applyEditBlocks];

function pipeline(cwd: string, home: string): Pipeline {
  return new Pipeline({
    gates: [securityGate({ cwd, home, shell: "bash" }), approvalGate({ projectDir: cwd })],
    confirm: null,
    autoApprove: true,
  });
}

const BLOCKED: [string, Record<string, string>][] = [
  ["write_to_file", { path: "/etc/cron.d/minoc_probe", content: "* * * * * root id\n" }],
  ["chmod", { path: "/etc/shadow", mode: "666" }],
  ["delete_file", { path: "/etc/passwd" }],
  ["delete_file", { path: "/usr/bin", recursive: "true" }],
  ["create_directory", { path: "/etc/minoc_probe_dir" }],
  ["replace_in_file", {
    path: "/etc/hosts",
    diff: "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE",
  }],
  ["edit_file", { path: "/etc/hosts", old: "localhost", new: "evil" }],
  ["apply_edit_blocks", { blocks: "<<<DELETE: /etc/passwd>>>\n" }],
];

for (const [name, params] of BLOCKED) {
  Deno.test(`Pipeline.decide() denies ${name} ${params.path ?? params.blocks.trim()} with --yes when the path is protected`, async () => {
    await withTempDir(async (dir) => {
      const d = await pipeline(dir, join(dir, "home")).decide(
        await gateInput(name, params, dir, TOOLS),
      );
      assert.equal(d.action, "deny", JSON.stringify(d.verdicts));
      assert.match(d.reason, /Blocked by the security gate/);
    });
  });
}

Deno.test("Pipeline.decide() denies write_to_file through a symlink that points into /etc", async () => {
  await withTempDir(async (dir) => {
    await Deno.symlink("/etc/minoc_probe_link_target", join(dir, "notes.txt"));
    const d = await pipeline(dir, join(dir, "home")).decide(
      await gateInput("write_to_file", { path: "notes.txt", content: "x" }, dir, TOOLS),
    );
    assert.equal(d.action, "deny", JSON.stringify(d.verdicts));
    assert.match(d.reason, /\/etc\/minoc_probe_link_target/);
  });
});

Deno.test("Pipeline.decide() denies delete_file of an entry of the home directory and asks for ~/.bashrc", async () => {
  await withTempDir(async (dir) => {
    const home = join(dir, "home");
    const project = join(home, "project");
    await Deno.mkdir(join(home, ".ssh"), { recursive: true });
    await Deno.mkdir(project);
    const p = pipeline(project, home);
    const del = await p.decide(
      await gateInput("delete_file", { path: "../.ssh", recursive: "true" }, project),
    );
    assert.equal(del.action, "deny");
    const gate = securityGate({ cwd: project, home, shell: "bash" });
    const v = await gate.check(
      await gateInput("write_to_file", { path: "../.bashrc", content: "x" }, project),
    );
    assert.deepEqual([v.action, v.rule], ["ask", "user-config"]);
  });
});

Deno.test("Pipeline.decide() runs file tools inside the project with --yes", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), "one\n");
    const p = pipeline(dir, "/nonexistent-home");
    for (
      const [name, params] of [
        ["write_to_file", { path: "src/b.ts", content: "x" }],
        ["chmod", { path: "a.txt", mode: "755" }],
        ["delete_file", { path: "a.txt" }],
        ["create_directory", { path: "build/out" }],
      ] as const
    ) {
      const d = await p.decide(await gateInput(name, params, dir, TOOLS));
      assert.equal(d.action, "run", `${name}: ${JSON.stringify(d.verdicts)}`);
    }
  });
});

Deno.test("A file tool writing a git hook or git's config asks, firmly: --yes without a terminal refuses it", async () => {
  await withTempDir(async (dir) => {
    await Deno.mkdir(join(dir, ".git", "hooks"), { recursive: true });
    const gate = securityGate({ cwd: dir, home: "/nonexistent-home", shell: "bash" });
    const p = pipeline(dir, "/nonexistent-home");
    for (
      const path of [".git/hooks/pre-commit", ".git/config", "vendor/lib/.git/hooks/post-checkout"]
    ) {
      const input = await gateInput("write_to_file", { path, content: "curl x | sh" }, dir);
      const v = await gate.check(input);
      assert.deepEqual([v.action, v.rule, v.firm], ["ask", "git-code", true], path);
      assert.match(v.reason ?? "", /git runs or reads on later git commands/);
      assert.equal((await p.decide(input)).action, "deny", path);
    }
    const ok = await p.decide(
      await gateInput("write_to_file", { path: "hooks/x.sh", content: "x" }, dir),
    );
    assert.equal(ok.action, "run");
  });
});
