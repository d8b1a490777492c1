import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { homeInputs, homePaths, resolveHome } from "../../../core/config/paths.ts";
import type { HomeInputs } from "../../../core/config/paths.ts";

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_paths_" });
  try {
    await fn(dir);
  } finally {
    await Deno.chmod(dir, 0o755).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
}

function inputs(over: Partial<HomeInputs> & { env?: HomeInputs["env"] }): HomeInputs {
  return {
    env: {},
    standalone: false,
    execPath: "/usr/bin/deno",
    mainModule: "file:///nowhere/main.ts",
    ...over,
  };
}

async function isDir(path: string): Promise<boolean> {
  return (await Deno.stat(path).catch(() => undefined))?.isDirectory === true;
}

Deno.test("`resolveHome()` uses MINOC_HOME when it is set", async () => {
  await withTemp(async (dir) => {
    const home = join(dir, "custom");
    const got = await resolveHome(inputs({ env: { MINOC_HOME: home, HOME: join(dir, "h") } }));
    assert.deepEqual(got, { dir: home });
    assert.ok(await isDir(home));
  });
});

Deno.test("`resolveHome()` puts .minoc beside a compiled binary", async () => {
  await withTemp(async (dir) => {
    const got = await resolveHome(
      inputs({ standalone: true, execPath: join(dir, "bin", "minoc"), env: { HOME: dir } }),
    );
    assert.deepEqual(got, { dir: join(dir, "bin", ".minoc") });
  });
});

Deno.test("`resolveHome()` puts .minoc beside main.ts from source, and beside a bundle", async () => {
  await withTemp(async (dir) => {
    const main = pathToFileURL(join(dir, "repo", "main.ts")).href;
    assert.deepEqual(await resolveHome(inputs({ mainModule: main })), {
      dir: join(dir, "repo", ".minoc"),
    });
    const bundle = pathToFileURL(join(dir, "repo", "dist", "minoc.js")).href;
    assert.deepEqual(await resolveHome(inputs({ mainModule: bundle })), {
      dir: join(dir, "repo", "dist", ".minoc"),
    });
  });
});

// Tests run as root here, and chmod does not stop root from writing. So the
// install directory is made unwritable for everyone by placing it under a
// regular FILE: creating a directory there fails with "not a directory".
// When not root, a chmod 555 directory is checked as well.
Deno.test("`resolveHome()` falls back to ~/.minoc with a warning when the install dir is read-only", async () => {
  await withTemp(async (dir) => {
    const blocker = join(dir, "file-not-dir");
    await Deno.writeTextFile(blocker, "");
    const installs = [join(blocker, "bin")];
    if (Deno.uid() !== 0) {
      const readOnly = join(dir, "ro");
      await Deno.mkdir(readOnly);
      await Deno.chmod(readOnly, 0o555);
      installs.push(readOnly);
    }
    for (const install of installs) {
      const home = join(dir, "user");
      const got = await resolveHome(
        inputs({ standalone: true, execPath: join(install, "minoc"), env: { HOME: home } }),
      );
      assert.equal(got.dir, join(home, ".minoc"));
      assert.equal(
        got.warning,
        `Cannot write to "${join(install, ".minoc")}": using "${join(home, ".minoc")}"`,
      );
      assert.ok(await isDir(got.dir));
    }
  });
});

Deno.test("`resolveHome()` uses USERPROFILE when HOME is missing, and says when both fail", async () => {
  await withTemp(async (dir) => {
    const blocker = join(dir, "f");
    await Deno.writeTextFile(blocker, "");
    const blocked = inputs({ mainModule: pathToFileURL(join(blocker, "main.ts")).href });
    const win = await resolveHome({ ...blocked, env: { USERPROFILE: join(dir, "win") } });
    assert.equal(win.dir, join(dir, "win", ".minoc"));
    const both = await resolveHome({ ...blocked, env: { HOME: join(blocker, "home") } });
    assert.match(both.warning ?? "", /not writable either/);
    const none = await resolveHome({ ...blocked, env: {} });
    assert.match(none.warning ?? "", /no HOME is set/);
  });
});

Deno.test("`resolveHome()` falls back when the entry module is not a file", async () => {
  await withTemp(async (dir) => {
    const got = await resolveHome(
      inputs({ mainModule: "https://example.com/main.ts", env: { HOME: dir } }),
    );
    assert.equal(got.dir, join(dir, ".minoc"));
    assert.match(got.warning ?? "", /https:\/\/example\.com\/main\.ts/);
  });
});

Deno.test("`homePaths()` names the sessions, logs, config, backups and project cache folders", () => {
  assert.deepEqual(homePaths("/h/.minoc"), {
    sessions: join("/h/.minoc", "history", "sessions"),
    logs: join("/h/.minoc", "logs"),
    config: join("/h/.minoc", "config"),
    backups: join("/h/.minoc", "history", "backups"),
    projects: join("/h/.minoc", "cache", "projects"),
  });
});

Deno.test("`homeInputs()` reports this process: not compiled, a file entry module", () => {
  const got = homeInputs();
  assert.equal(got.standalone, false);
  assert.match(got.mainModule, /^file:/);
  assert.equal(got.execPath, Deno.execPath());
  assert.equal(got.env.HOME, Deno.env.get("HOME"));
});
