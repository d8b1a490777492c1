/**
 * The settings writer and key files on a real temp dir; apiKeyFile through
 * the real loader.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  restoreFile,
  snapshotFile,
  updateSettingsFile,
  writeKeyFile,
} from "../../../core/config/settings_write.ts";
import { loadSettings } from "../../../core/config/load.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_write_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const POSIX = Deno.build.os !== "windows";

Deno.test("updateSettingsFile() sets and removes fields and keeps the others in order", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "config", "settings.json");
    await Deno.mkdir(join(dir, "config"));
    await Deno.writeTextFile(
      path,
      '{\n    "maxTurns": 7,\n    "apiKeyEnv": "OLD_KEY",\n    "model": "old"\n}\n',
    );
    const r = await updateSettingsFile(path, {
      model: "new",
      baseUrl: "http://127.0.0.1:1234/v1",
      apiKeyEnv: undefined,
    });
    assert.deepEqual(r, { ok: true });
    const text = await Deno.readTextFile(path);
    assert.equal(
      text,
      '{\n    "maxTurns": 7,\n    "model": "new",\n    "baseUrl": "http://127.0.0.1:1234/v1"\n}\n',
    );
    assert.deepEqual((await Array.fromAsync(Deno.readDir(join(dir, "config")))).length, 1);
  });
});

Deno.test("updateSettingsFile() creates a missing file and its folder", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "a", "config", "settings.json");
    assert.deepEqual(await updateSettingsFile(path, { model: "m" }), { ok: true });
    assert.deepEqual(JSON.parse(await Deno.readTextFile(path)), { model: "m" });
  });
});

Deno.test("updateSettingsFile() leaves a broken file exactly as it was and says why", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "settings.json");
    const broken = '{ "model": "m", }';
    await Deno.writeTextFile(path, broken);
    const r = await updateSettingsFile(path, { model: "x" });
    assert.ok(!r.ok);
    assert.match(
      r.message,
      /^Cannot read config ".*settings\.json": invalid JSON.*left unchanged$/,
    );
    assert.equal(await Deno.readTextFile(path), broken);
  });
});

Deno.test("updateSettingsFile() refuses a value the schema rejects, writing nothing", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "settings.json");
    await Deno.writeTextFile(path, '{"model":"m"}');
    const r = await updateSettingsFile(path, { baseUrl: "ftp://x" });
    assert.ok(!r.ok);
    assert.match(r.message, /field "baseUrl" must be an http/);
    assert.equal(await Deno.readTextFile(path), '{"model":"m"}');
  });
});

Deno.test("writeKeyFile() writes a file only its owner can read, in a private folder", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "keys", "openai.key");
    assert.deepEqual(await writeKeyFile(path, "  sk-abc  "), { ok: true });
    assert.equal(await Deno.readTextFile(path), "sk-abc\n");
    if (POSIX) {
      assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
      assert.equal((await Deno.stat(join(dir, "keys"))).mode! & 0o777, 0o700);
    }
  });
});

Deno.test("restoreFile() puts back what snapshotFile() saw, or removes a new file", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "k");
    const none = await snapshotFile(path);
    await Deno.writeTextFile(path, "new");
    await restoreFile(path, none);
    assert.equal(await Deno.stat(path).then(() => true, () => false), false);
    await Deno.writeTextFile(path, "old");
    const old = await snapshotFile(path);
    await Deno.writeTextFile(path, "changed");
    await restoreFile(path, old);
    assert.equal(await Deno.readTextFile(path), "old");
  });
});

async function load(home: string, cwd: string, env: Record<string, string> = {}) {
  return await loadSettings({ homeDir: home, cwd, flags: {}, env });
}

Deno.test("loadSettings() reads the key of apiKeyFile in the home settings, before the env var", async () => {
  await withDir(async (dir) => {
    const home = join(dir, "home");
    await writeKeyFile(join(home, "config", "keys", "x.key"), "sk-from-file");
    await updateSettingsFile(join(home, "config", "settings.json"), {
      baseUrl: "https://example.test/v1",
      model: "m",
      apiKeyFile: "keys/x.key",
    });
    const r = await load(home, dir, { OPENAI_API_KEY: "sk-from-env" });
    assert.ok(r.ok, !r.ok ? r.message : "");
    assert.equal(r.settings.apiKey, "sk-from-file");
    assert.match(r.sources.apiKey, /settings\.json apiKeyFile$/);
  });
});

Deno.test({
  name: "loadSettings() refuses a key file others can read, naming the file and the fix",
  ignore: !POSIX,
  async fn() {
    await withDir(async (dir) => {
      const home = join(dir, "home");
      const key = join(home, "config", "k.key");
      await writeKeyFile(key, "sk-x");
      await Deno.chmod(key, 0o644);
      await updateSettingsFile(join(home, "config", "settings.json"), {
        model: "m",
        apiKeyFile: "k.key",
      });
      const r = await load(home, dir);
      assert.ok(!r.ok);
      assert.match(
        r.message,
        /field "apiKeyFile": ".*k\.key" can be read by other users: run chmod 600/,
      );
    });
  },
});

Deno.test("loadSettings() refuses apiKeyFile in a project's settings", async () => {
  await withDir(async (dir) => {
    const project = join(dir, "project");
    await updateSettingsFile(join(project, ".minoc", "config", "settings.json"), {
      apiKeyFile: "/etc/hostname",
    });
    const r = await load(join(dir, "home"), project);
    assert.ok(!r.ok);
    assert.match(r.message, /field "apiKeyFile" is only read from the home settings/);
  });
});

Deno.test("loadSettings() marks a start with nothing configured as noServer", async () => {
  await withDir(async (dir) => {
    const r = await load(join(dir, "home"), dir);
    assert.ok(!r.ok && r.noServer === true);
    const bad = await load(join(dir, "home"), dir, { OPENAI_BASE_URL: "nope" });
    assert.ok(!bad.ok && bad.noServer === undefined);
  });
});
