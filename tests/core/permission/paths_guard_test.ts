import assert from "node:assert/strict";
import { join } from "node:path";
import {
  guardPaths,
  isProtected,
  realDir,
  realPathOf,
  resolveReal,
} from "../../../core/permission/paths_guard.ts";
import { subjectPath } from "../../../core/permission/rules.ts";
import { withTempDir } from "../../support/tool_context.ts";

/** A project directory and a sibling "outside" directory in one temp dir. */
async function layout(root: string): Promise<{ project: string; outside: string }> {
  const project = join(root, "project");
  const outside = join(root, "outside");
  await Deno.mkdir(join(project, "src"), { recursive: true });
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(outside, "secret.txt"), "x");
  return { project, outside };
}

async function guard(project: string, path: string, write: boolean) {
  const real = await realDir(project);
  const paths = await resolveReal([subjectPath(project, path, project)], real);
  return guardPaths(paths, { cwd: project, realCwd: real, write });
}

Deno.test("`guardPaths()` asks for a path that climbs out with ..", async () => {
  await withTempDir(async (root) => {
    const { project } = await layout(root);
    const f = await guard(project, "src/../../outside/secret.txt", false);
    assert.equal(f?.rule, "paths guard: outside the working directory");
    assert.match(f?.reason ?? "", /resolves outside the working directory/);
    assert.equal(await guard(project, "src/../src/new.ts", true), null);
  });
});

Deno.test("`guardPaths()` asks for a path that escapes through a symlink, even to a file not yet there", async () => {
  await withTempDir(async (root) => {
    const { project, outside } = await layout(root);
    await Deno.symlink(outside, join(project, "src", "link"));
    const existing = await guard(project, "src/link/secret.txt", false);
    assert.equal(existing?.rule, "paths guard: outside the working directory");
    assert.match(existing?.reason ?? "", new RegExp(`to "${outside}/secret.txt"`));
    const fresh = await guard(project, "src/link/new/deep/file.ts", true);
    assert.equal(fresh?.rule, "paths guard: outside the working directory");
  });
});

Deno.test("`guardPaths()` follows a dangling symlink to where a write would land", async () => {
  await withTempDir(async (root) => {
    const { project, outside } = await layout(root);
    await Deno.symlink(join(outside, "not-yet.txt"), join(project, "dangling.txt"));
    assert.equal(await realPathOf(join(project, "dangling.txt")), join(outside, "not-yet.txt"));
    const f = await guard(project, "dangling.txt", true);
    assert.equal(f?.rule, "paths guard: outside the working directory");
  });
});

Deno.test("`guardPaths()` lets a symlink that stays inside the project pass", async () => {
  await withTempDir(async (root) => {
    const { project } = await layout(root);
    await Deno.symlink(join(project, "src"), join(project, "alias"));
    assert.equal(await guard(project, "alias/a.ts", true), null);
  });
});

Deno.test("`guardPaths()` asks for writes to .git/, .minoc/ and .env*, and for reads of .env* only", async () => {
  await withTempDir(async (root) => {
    const { project } = await layout(root);
    await Deno.mkdir(join(project, ".git"));
    for (
      const path of [
        ".git/config",
        ".minoc/config/permissions.json",
        ".env",
        "sub/.env.local",
        ".GIT/hooks/x",
      ]
    ) {
      const f = await guard(project, path, true);
      assert.equal(f?.rule, "paths guard: protected path", path);
      const read = await guard(project, path, false);
      if (path.includes(".env")) {
        assert.equal(read?.rule, "paths guard: secret file", path);
        assert.equal(read?.rulesMayAllow, true);
      } else assert.equal(read, null, path);
    }
    assert.equal(await guard(project, "src/environment.ts", true), null);
    assert.equal(await guard(project, ".env.example", false), null);
  });
});

Deno.test("`guardPaths()` treats a read of the user's keys and passwords as a secret read, wherever they are", async () => {
  await withTempDir(async (root) => {
    const { project, outside } = await layout(root);
    await Deno.mkdir(join(outside, ".ssh"));
    await Deno.writeTextFile(join(outside, ".ssh", "id_ed25519"), "key");
    await Deno.symlink(join(outside, ".ssh", "id_ed25519"), join(project, "innocent.txt"));
    for (
      const path of [
        join(outside, ".ssh", "id_ed25519"),
        join(outside, ".aws", "credentials"),
        join(outside, ".netrc"),
        "/etc/shadow",
        // What a running program holds: minoc's own key is in its environment or arguments.
        "/proc/self/environ",
        `/proc/${Deno.pid}/cmdline`,
        "/proc/1/task/1/mem",
        join(outside, ".minoc", "config", "keys", "openai.key"), // minoc setup's own key file
        "innocent.txt", // a link inside the project to a key outside it
      ]
    ) {
      const read = await guard(project, path, false);
      assert.equal(read?.rule, "paths guard: secret file", path);
      assert.equal(read?.rulesMayAllow, true, path);
    }
    const pub = await guard(project, join(outside, ".ssh", "id_ed25519.pub"), false);
    assert.equal(pub?.rule, "paths guard: outside the working directory");
  });
});

Deno.test("`guardPaths()` asks for a write reaching .git through a symlinked directory", async () => {
  await withTempDir(async (root) => {
    const { project } = await layout(root);
    await Deno.mkdir(join(project, ".git", "hooks"), { recursive: true });
    await Deno.symlink(join(project, ".git", "hooks"), join(project, "hooks"));
    const f = await guard(project, "hooks/pre-commit", true);
    assert.equal(f?.rule, "paths guard: protected path");
  });
});

Deno.test("`isProtected()` matches whole segments only", () => {
  assert.equal(isProtected(".git"), true);
  assert.equal(isProtected("a/.minoc/b"), true);
  assert.equal(isProtected(".envrc"), true);
  assert.equal(isProtected("my.git/x"), false);
  assert.equal(isProtected("src/env.ts"), false);
});

Deno.test("`guardPaths()`: a write into .git/ or .minoc/ is firm (--yes does not approve it), one to .env* is not", async () => {
  await withTempDir(async (root) => {
    const { project } = await layout(root);
    await Deno.mkdir(join(project, ".git", "hooks"), { recursive: true });
    await Deno.symlink(join(project, ".git", "hooks"), join(project, "hooks"));
    for (const path of [".git/hooks/pre-commit", ".minoc/config/permissions.json", "hooks/x"]) {
      assert.equal((await guard(project, path, true))?.firm, true, path);
    }
    assert.equal((await guard(project, ".env", true))?.firm, undefined);
  });
});

Deno.test("`realPathOf()`: a new file through its real parent; null under a file, in a link loop or where it cannot look", async () => {
  await withTempDir(async (root) => {
    const { project, outside } = await layout(root);
    const real = await realDir(root);
    await Deno.symlink(outside, join(project, "out"));
    assert.equal(
      await realPathOf(join(project, "out", "a", "b.txt")),
      join(real, "outside/a/b.txt"),
    );
    assert.equal(await realPathOf(join(outside, "secret.txt", "below")), null);
    await Deno.symlink(join(project, "loop-b"), join(project, "loop-a"));
    await Deno.symlink(join(project, "loop-a"), join(project, "loop-b"));
    assert.equal(await realPathOf(join(project, "loop-a", "x")), null);
    if (Deno.uid() !== 0) {
      await Deno.chmod(outside, 0o000);
      try {
        assert.equal(await realPathOf(join(outside, "secret.txt")), null);
      } finally {
        await Deno.chmod(outside, 0o755);
      }
    }
  });
});
