import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  addRules,
  loadRules,
  permissionsPath,
  revokeRule,
} from "../../../core/permission/rules_store.ts";
import { withTempDir } from "../../support/tool_context.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/permissions/", import.meta.url));

Deno.test("`addRules()` and `loadRules()` round-trip rules through <home>/config/permissions.json", async () => {
  await withTempDir(async (home) => {
    const file = permissionsPath(home);
    assert.equal(file, join(home, "config", "permissions.json"));
    assert.deepEqual(await loadRules(file), { ok: true, rules: [] });
    const added = await addRules(file, [
      { tool: "execute_command", pattern: "npm test *", action: "allow", scope: "/repo" },
      { tool: "write_to_file", pattern: "secrets/**", action: "deny", scope: "*" },
    ]);
    assert.ok(added.ok);
    assert.equal(added.rules.length, 2);
    assert.match(added.rules[0].id, /^p-[0-9a-f]{6}$/);
    assert.notEqual(added.rules[0].id, added.rules[1].id);
    assert.ok(!Number.isNaN(Date.parse(added.rules[0].createdAt)));
    const loaded = await loadRules(file);
    assert.deepEqual(loaded, { ok: true, rules: added.rules });
    const on = JSON.parse(await Deno.readTextFile(file));
    assert.equal(on.rules[1].pattern, "secrets/**");
  });
});

Deno.test("`revokeRule()` removes one rule and reports an unknown id as null", async () => {
  await withTempDir(async (home) => {
    const file = permissionsPath(home);
    const added = await addRules(file, [
      { tool: "execute_command", pattern: "a *", action: "allow", scope: "*" },
      { tool: "execute_command", pattern: "b *", action: "allow", scope: "*" },
    ]);
    assert.ok(added.ok);
    const gone = await revokeRule(file, added.rules[0].id);
    assert.ok(gone.ok);
    assert.equal(gone.removed?.pattern, "a *");
    const left = await loadRules(file);
    assert.ok(left.ok);
    assert.deepEqual(left.rules.map((r) => r.pattern), ["b *"]);
    const none = await revokeRule(file, "p-nope");
    assert.deepEqual(none, { ok: true, removed: null });
  });
});

for (
  const [name, problem] of [["corrupt.json", /not valid JSON/], [
    "invalid.json",
    /field "rules\[0\]\.action"/,
  ]] as const
) {
  Deno.test(`\`addRules()\` reports ${name} with its path and leaves it byte-identical`, async () => {
    await withTempDir(async (home) => {
      const file = permissionsPath(home);
      await Deno.mkdir(join(home, "config"));
      await Deno.copyFile(join(FIXTURES, name), file);
      const before = await Deno.readFile(file);
      const loaded = await loadRules(file);
      const said = loaded.ok ? (loaded.problems ?? []).join("; ") : loaded.error;
      assert.equal(loaded.ok, name === "invalid.json", "a bad rule is skipped, a bad file is not");
      assert.match(said, new RegExp(`^(Cannot read|Skipped rule 0 of) "${file}": `));
      assert.match(said, problem);
      const added = await addRules(file, [{
        tool: "execute_command",
        pattern: "ls *",
        action: "allow",
        scope: "*",
      }]);
      assert.equal(added.ok, false);
      if (!added.ok) assert.equal(added.error, said);
      const revoked = await revokeRule(file, "p-1");
      assert.equal(revoked.ok, false);
      assert.deepEqual(await Deno.readFile(file), before);
      const names = [...Deno.readDirSync(join(home, "config"))].map((e) => e.name).sort();
      assert.deepEqual(names, ["permissions.json", "permissions.json.lock"]);
    });
  });
}

Deno.test("`addRules()` in two processes at the same moment keeps all 100 rules", async () => {
  await withTempDir(async (home) => {
    const file = permissionsPath(home);
    const children = ["a", "b"].map((tag) =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--quiet",
          "--allow-read",
          "--allow-write",
          join(FIXTURES, "add_many.ts"),
          file,
          tag,
          "50",
        ],
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn()
    );
    try {
      const readers = children.map((c) =>
        c.stdout.pipeThrough(new TextDecoderStream()).getReader()
      );
      for (const r of readers) assert.equal((await r.read()).value?.trim(), "ready");
      const go = new TextEncoder().encode("go\n");
      await Promise.all(children.map(async (c) => {
        const w = c.stdin.getWriter();
        await w.write(go);
        await w.close();
      }));
      for (const r of readers) while (!(await r.read()).done) { /* drain */ }
      for (const c of children) {
        const [status, stderr] = await Promise.all([c.status, new Response(c.stderr).text()]);
        assert.equal(status.code, 0, stderr);
      }
    } finally {
      for (const c of children) {
        try {
          c.kill();
        } catch { /* already ended */ }
      }
    }
    const loaded = await loadRules(file);
    assert.ok(loaded.ok);
    assert.equal(loaded.rules.length, 100);
    const patterns = new Set(loaded.rules.map((r) => r.pattern));
    for (const tag of ["a", "b"]) {
      for (let i = 0; i < 50; i++) assert.ok(patterns.has(`${tag} ${i} *`), `${tag} ${i}`);
    }
    assert.equal(new Set(loaded.rules.map((r) => r.id)).size, 100);
  });
});

Deno.test("`addRules()` waits for another process's lock and proceeds once that process dies", async () => {
  await withTempDir(async (home) => {
    const file = permissionsPath(home);
    await Deno.mkdir(join(home, "config"));
    const holder = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--allow-read",
        "--allow-write",
        join(FIXTURES, "hold_lock.ts"),
        file,
      ],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const out = holder.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assert.equal((await out.read()).value?.trim(), "locked");
    let finished = false;
    const saving = addRules(file, [{
      tool: "execute_command",
      pattern: "ls *",
      action: "allow",
      scope: "*",
    }])
      .finally(() => finished = true);
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(finished, false, "the save must wait while another process holds the lock");
    holder.kill("SIGKILL");
    await holder.status;
    await out.cancel();
    const r = await saving;
    assert.ok(r.ok);
    const loaded = await loadRules(file);
    assert.ok(loaded.ok);
    assert.equal(loaded.rules.length, 1);
  });
});

Deno.test("`loadRules()` skips a bad rule with its index and field and keeps the others when one is invalid", async () => {
  await withTempDir(async (home) => {
    const file = permissionsPath(home);
    await Deno.mkdir(join(home, "config"));
    const at = "2025-01-01T00:00:00.000Z";
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        version: 1,
        rules: [
          {
            id: "p-1",
            tool: "execute_command",
            pattern: "curl *",
            action: "deny",
            scope: "*",
            createdAt: at,
          },
          {
            id: "p-2",
            tool: "execute_command",
            pattern: "ls *",
            action: "Allow",
            scope: "*",
            createdAt: at,
          },
          { id: "p-3", tool: "", pattern: "x", action: "allow", scope: "*", createdAt: at },
        ],
      }),
    );
    const r = await loadRules(file);
    assert.ok(r.ok);
    assert.deepEqual(r.rules.map((x) => x.id), ["p-1"]);
    assert.equal(r.problems?.length, 2);
    assert.match(
      r.problems![0],
      /^Skipped rule 1 of ".*permissions\.json": field "rules\[1\]\.action"/,
    );
    assert.match(r.problems![1], /^Skipped rule 2 of ".*": field "rules\[2\]\.tool"/);
  });
});
