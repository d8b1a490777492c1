import assert from "node:assert/strict";
import { join } from "node:path";
import { checkConfigFiles } from "../../../core/config/load.ts";
import { homeFile, load, projectFile, withTree } from "./config_tree.ts";

Deno.test("`loadSettings()` reports every broken file and leaves their bytes untouched", async () => {
  await withTree(async (t) => {
    const settingsText = '{\n  "retry": { "maxRetries": 2.5 },\n  "colour": "blue"\n}\n';
    const modelsText = '{\n  "m1": {\n    "temperature": 0.2,\n  }\n}';
    const s = await t.write(homeFile(t.home, "settings.json"), settingsText);
    const m = await t.write(projectFile(t.project, "models.json"), modelsText);
    const before = [await Deno.stat(s), await Deno.stat(m)].map((i) => i.mtime?.getTime());
    const r = await load(t, {}, { OPENAI_API_KEY: "k" });
    assert.equal(r.ok, false);
    const lines = !r.ok ? r.message.split("\n") : [];
    assert.deepEqual(lines, [
      `Cannot read config "${m}": invalid JSON at line 4, column 3: expected double-quoted property name`,
      `Cannot read config "${s}": field "retry.maxRetries" must be an integer (got 2.5)`,
      `Cannot read config "${s}": unknown field "colour" (expected one of: baseUrl, model, ` +
      "apiKeyEnv, apiKeyFile, temperature, topP, topK, maxTokens, retry, idleTimeoutMs, progress, maxTurns, contextWindow, allowUnconfinedScripts, sandbox)",
    ]);
    assert.equal(await Deno.readTextFile(s), settingsText);
    assert.equal(await Deno.readTextFile(m), modelsText);
    const after = [await Deno.stat(s), await Deno.stat(m)].map((i) => i.mtime?.getTime());
    assert.deepEqual(after, before);
  });
});

Deno.test("`loadSettings()` reports a folder where a file should be", async () => {
  await withTree(async (t) => {
    const path = homeFile(t.home, "settings.json");
    await Deno.mkdir(path, { recursive: true });
    const r = await load(t, {}, { OPENAI_API_KEY: "k" });
    assert.equal(!r.ok && r.message, `Cannot read config "${path}": it is a directory, not a file`);
  });
});

Deno.test("`loadSettings()` refuses a FIFO or an endless device where a file should be, without waiting", async () => {
  await withTree(async (t) => {
    const path = join(t.project, ".minoc", "config", "settings.json");
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await new Deno.Command("mkfifo", { args: [path] }).output();
    const r = await load(t, {}, { OPENAI_API_KEY: "k" });
    assert.equal(
      !r.ok && r.message,
      `Cannot read config "${path}": it is a named pipe (FIFO), not a regular file`,
    );
    await Deno.remove(path);
    await Deno.symlink("/dev/zero", path);
    const z = await load(t, {}, { OPENAI_API_KEY: "k" });
    assert.equal(
      !z.ok && z.message,
      `Cannot read config "${path}": it is a character device, not a regular file`,
    );
  });
});

Deno.test("`checkConfigFiles()` marks each file absent, ok or bad", async () => {
  await withTree(async (t) => {
    await t.write(homeFile(t.home, "settings.json"), { model: "x" });
    await t.write(homeFile(t.home, "models.json"), { x: { topK: 0 } });
    const checks = await checkConfigFiles(t.home, t.project);
    assert.deepEqual(checks.map((c) => [c.scope, c.kind, c.state]), [
      ["project", "settings", "absent"],
      ["project", "models", "absent"],
      ["home", "settings", "ok"],
      ["home", "models", "bad"],
    ]);
    assert.match(checks[3].problems[0], /field "x\.topK" must be from 1 to 1000000 \(got 0\)$/);
  });
});
