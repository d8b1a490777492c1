import assert from "node:assert/strict";
import { join } from "node:path";
import { Command } from "@commander-js/extra-typings";
import { permissionsCommand, permissionsText } from "../../cli/commands/permissions.ts";
import { CliError, EXIT, memoryIO } from "../../cli/io.ts";
import { loadRules, permissionsPath } from "../../core/permission/rules_store.ts";
import { withTempDir } from "../support/tool_context.ts";

/** Runs `permissions <args>` in-process; returns the IO with its output. */
async function run(args: string[], env: { homeDir: string; cwd: string; toolNames?: string[] }) {
  const io = memoryIO();
  const program = new Command().exitOverride().configureOutput({
    writeOut: (s) => io.out(s),
    writeErr: (s) => io.err(s),
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  program.addCommand(permissionsCommand(io, env));
  await program.parseAsync(["permissions", ...args], { from: "user" });
  return io;
}

async function failure(p: Promise<unknown>): Promise<CliError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof CliError, String(e));
    return e;
  }
  throw new Error("expected a CliError");
}

Deno.test("`permissions add` stores a project rule and `list` shows it with its id", async () => {
  await withTempDir(async (root) => {
    const env = { homeDir: join(root, "home"), cwd: join(root, "project") };
    const added = await run(["add", "execute_command", "npm test *"], env);
    const m =
      /^Added (p-[0-9a-f]{6}): allow execute_command: npm test \* \(this project\)\nSaved in "(.+)"\n$/
        .exec(added.stdout);
    assert.ok(m, added.stdout);
    assert.equal(m[2], permissionsPath(env.homeDir));
    const saved = await loadRules(permissionsPath(env.homeDir));
    assert.ok(saved.ok);
    assert.deepEqual(saved.rules.map((r) => [r.id, r.action, r.scope]), [[m[1], "allow", env.cwd]]);
    const listed = await run(["list"], env);
    assert.match(
      listed.stdout,
      new RegExp(
        `Rules in force here \\(${env.cwd}\\):\\n  ${
          m[1]
        }  allow  execute_command: npm test \\*  \\(this project\\)`,
      ),
    );
    const json = JSON.parse((await run(["list", "--json"], env)).stdout);
    assert.equal(json[0].id, m[1]);
  });
});

Deno.test("`permissions add --deny --everywhere` stores a deny rule for every project", async () => {
  await withTempDir(async (root) => {
    const env = { homeDir: join(root, "home"), cwd: join(root, "project") };
    const io = await run(["add", "write_to_file", "secrets/**", "--deny", "--everywhere"], env);
    assert.match(io.stdout, /: deny write_to_file: secrets\/\*\* \(everywhere\)\nSaved in "/);
    const other = await run(["list"], { ...env, cwd: join(root, "other") });
    assert.ok(
      other.stdout.includes("deny   write_to_file: secrets/**  (everywhere)"),
      other.stdout,
    );
  });
});

Deno.test("`permissions revoke` removes a rule and fails with exit 2 for an unknown id", async () => {
  await withTempDir(async (root) => {
    const env = { homeDir: join(root, "home"), cwd: join(root, "project") };
    const added = await run(["add", "execute_command", "git status *"], env);
    const id = /Added (p-[0-9a-f]+)/.exec(added.stdout)?.[1] ?? "";
    const revoked = await run(["revoke", id], env);
    assert.equal(
      revoked.stdout,
      `Revoked ${id}: allow execute_command: git status * (this project)\n`,
    );
    const saved = await loadRules(permissionsPath(env.homeDir));
    assert.deepEqual(saved, { ok: true, rules: [] });
    const e = await failure(run(["revoke", id], env));
    assert.equal(e.exitCode, EXIT.usage);
    assert.equal(e.message, `No rule with id "${id}": see minoc permissions list`);
  });
});

Deno.test("`permissions add` rejects a pattern that is not one command, and an unknown tool", async () => {
  await withTempDir(async (root) => {
    const env = {
      homeDir: join(root, "home"),
      cwd: root,
      toolNames: ["execute_command", "write_to_file"],
    };
    const bad = await failure(run(["add", "execute_command", "npm test && rm -rf x"], env));
    assert.equal(bad.exitCode, EXIT.usage);
    assert.match(bad.message, /is not one simple command/);
    const unknown = await failure(run(["add", "run_shell", "ls *"], env));
    assert.match(
      unknown.message,
      /^Unknown tool "run_shell": use one of execute_command, write_to_file$/,
    );
  });
});

Deno.test("`permissions` reports a corrupt file with its path and never rewrites it", async () => {
  await withTempDir(async (root) => {
    const env = { homeDir: join(root, "home"), cwd: root };
    const file = permissionsPath(env.homeDir);
    await Deno.mkdir(join(env.homeDir, "config"), { recursive: true });
    await Deno.writeTextFile(file, '{"rules": [');
    for (const args of [["list"], ["add", "execute_command", "ls *"], ["revoke", "p-1"]]) {
      const e = await failure(run(args, env));
      assert.equal(e.exitCode, EXIT.usage);
      assert.match(
        e.message,
        new RegExp(`^Cannot read "${file}": not valid JSON .*; fix or remove the file$`),
      );
    }
    assert.equal(await Deno.readTextFile(file), '{"rules": [');
    assert.match(await permissionsText(env), /^Cannot read ".*permissions\.json": not valid JSON/);
  });
});

Deno.test("`permissionsText()` lists rules in force here first, then other projects' rules", async () => {
  await withTempDir(async (root) => {
    const env = { homeDir: join(root, "home"), cwd: join(root, "a") };
    assert.match(await permissionsText(env), /^No saved permission rules/);
    await run(["add", "execute_command", "npm test *"], env);
    await run(["add", "execute_command", "make *"], { ...env, cwd: join(root, "b") });
    const text = await permissionsText(env);
    const here = text.indexOf("npm test *");
    const other = text.indexOf("Rules of other projects:");
    assert.ok(here > 0 && other > here, text);
    assert.match(text.slice(other), new RegExp(`make \\*  \\(project ${join(root, "b")}\\)`));
  });
});
