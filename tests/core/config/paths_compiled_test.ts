/**
 * `.minoc` resolution for a `deno compile` binary, simulated: the executable
 * path is injected (`standalone: true`), with the entry module set to the
 * virtual path a compiled binary reports, which must be ignored.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths, resolveHome } from "../../../core/config/paths.ts";
import type { HomeInputs } from "../../../core/config/paths.ts";

/** What a compiled binary installed as `<installDir>/minoc` would report. */
function compiled(installDir: string, env: HomeInputs["env"]): HomeInputs {
  return {
    env,
    standalone: true,
    execPath: join(installDir, "minoc"),
    // A compiled binary's main module lives in a virtual file system.
    mainModule: "file:///tmp/deno-compile-minoc/main.ts",
  };
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_compiled_" });
  try {
    await fn(dir);
  } finally {
    for await (const e of walkDirs(dir)) await Deno.chmod(e, 0o755).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
}

async function* walkDirs(dir: string): AsyncGenerator<string> {
  yield dir;
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) yield* walkDirs(join(dir, e.name));
  }
}

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

/**
 * Install directories nobody can write to. As root chmod does not stop
 * writes, so one lies below a regular file; when not root, a chmod 555
 * directory is added.
 */
async function readOnlyInstalls(dir: string): Promise<string[]> {
  const blocker = join(dir, "not-a-dir");
  await Deno.writeTextFile(blocker, "");
  const installs = [join(blocker, "bin")];
  if (Deno.uid() !== 0) {
    const ro = join(dir, "usr-local-bin");
    await Deno.mkdir(ro);
    await Deno.chmod(ro, 0o555);
    installs.push(ro);
  }
  return installs;
}

Deno.test("`resolveHome()` puts .minoc beside a compiled binary and ignores its virtual main module", async () => {
  await withTemp(async (dir) => {
    const install = join(dir, "opt", "minoc");
    await Deno.mkdir(install, { recursive: true });
    await Deno.writeTextFile(join(install, "minoc"), "binary");
    const got = await resolveHome(compiled(install, { HOME: join(dir, "home") }));
    assert.deepEqual(got, { dir: join(install, ".minoc") });
    assert.equal(
      homePaths(got.dir).sessions,
      join(install, ".minoc", "history", "sessions"),
    );
    // The writability probe leaves nothing behind, and the user's home is untouched.
    assert.deepEqual(await names(install), [".minoc", "minoc"]);
    assert.deepEqual(await names(join(install, ".minoc")), []);
    assert.equal(await Deno.stat(join(dir, "home")).catch(() => null), null);
  });
});

Deno.test("`resolveHome()` lets MINOC_HOME win over a compiled binary's directory", async () => {
  await withTemp(async (dir) => {
    const install = join(dir, "bin");
    await Deno.mkdir(install);
    const custom = join(dir, "data", "minoc-home");
    const got = await resolveHome(compiled(install, { MINOC_HOME: custom, HOME: dir }));
    assert.deepEqual(got, { dir: custom });
    assert.deepEqual(await names(install), []);
  });
});

Deno.test("`resolveHome()` falls back to ~/.minoc with one warning when a compiled binary's directory is read-only", async () => {
  await withTemp(async (dir) => {
    for (const install of await readOnlyInstalls(dir)) {
      const home = join(dir, "home");
      const got = await resolveHome(compiled(install, { HOME: home }));
      assert.equal(got.dir, join(home, ".minoc"));
      assert.equal(
        got.warning,
        `Cannot write to "${join(install, ".minoc")}": using "${join(home, ".minoc")}"`,
      );
      assert.ok(!got.warning?.includes("\n"), "the warning is one line");
      assert.equal((await Deno.stat(got.dir)).isDirectory, true);
      // The next start lands in the same place.
      assert.deepEqual(await resolveHome(compiled(install, { HOME: home })), got);
    }
  });
});

Deno.test("`resolveHome()` falls back when a compiled binary's .minoc exists but is not a usable directory", async () => {
  await withTemp(async (dir) => {
    const install = join(dir, "bin");
    await Deno.mkdir(install);
    await Deno.writeTextFile(join(install, ".minoc"), "a file where the home should be");
    const home = join(dir, "home");
    const got = await resolveHome(compiled(install, { HOME: home }));
    assert.equal(got.dir, join(home, ".minoc"));
    assert.match(got.warning ?? "", /^Cannot write to ".*\.minoc": using ".*home\/\.minoc"$/);
    assert.equal(
      await Deno.readTextFile(join(install, ".minoc")),
      "a file where the home should be",
    );
  });
});

Deno.test("`resolveHome()` uses USERPROFILE for a read-only compiled install on Windows-like environments", async () => {
  await withTemp(async (dir) => {
    const [install] = await readOnlyInstalls(dir);
    const profile = join(dir, "Users", "dev");
    const got = await resolveHome(compiled(install, { USERPROFILE: profile }));
    assert.equal(got.dir, join(profile, ".minoc"));
    assert.match(got.warning ?? "", /^Cannot write to /);
  });
});

Deno.test("`resolveHome()` says so when neither a compiled binary's directory nor the user's home is writable", async () => {
  await withTemp(async (dir) => {
    const [install] = await readOnlyInstalls(dir);
    const blockedHome = join(dir, "not-a-dir", "home");
    const got = await resolveHome(compiled(install, { HOME: blockedHome }));
    assert.equal(got.dir, join(blockedHome, ".minoc"));
    assert.match(got.warning ?? "", /\(which is not writable either\)$/);
    const none = await resolveHome(compiled(install, {}));
    assert.match(none.warning ?? "", /no HOME is set/);
  });
});
