import assert from "node:assert/strict";
import { join } from "node:path";
import { configDirs, configuredModels, loadSettings } from "../../../core/config/load.ts";
import type { SettingFlags } from "../../../core/config/settings.ts";
import { isFolderTrusted, trustFolder } from "../../../core/config/trust.ts";
import { homeFile, load, projectFile, withTree } from "./config_tree.ts";

Deno.test("`loadSettings()` takes each layer in turn when the ones above it are removed", async () => {
  await withTree(async (t) => {
    await trustFolder(t.home, t.project); // a project may set baseUrl only when trusted
    const projectSettings = await t.write(projectFile(t.project, "settings.json"), {
      model: "from-project",
      baseUrl: "http://project:1/v1",
    });
    const homeSettings = await t.write(homeFile(t.home, "settings.json"), {
      model: "from-home",
      baseUrl: "http://home:1/v1",
    });
    const env = {
      MINOC_MODEL: "from-env",
      OPENAI_BASE_URL: "http://env:1/v1",
      OPENAI_API_KEY: "k",
    };
    const flags = { model: "from-flag", baseUrl: "http://flag:1/v1" };
    const seen = async (f: SettingFlags, e: Record<string, string>) => {
      const r = await load(t, f, e);
      assert.ok(r.ok, !r.ok ? r.message : "");
      return [r.settings.params.model, r.settings.baseURL, r.sources.model, r.sources.baseUrl];
    };
    assert.deepEqual(await seen(flags, env), ["from-flag", "http://flag:1/v1", "flag", "flag"]);
    assert.deepEqual(await seen({}, env), [
      "from-env",
      "http://env:1/v1",
      "env MINOC_MODEL",
      "env OPENAI_BASE_URL",
    ]);
    assert.deepEqual(await seen({}, { OPENAI_API_KEY: "k" }), [
      "from-project",
      "http://project:1/v1",
      projectSettings,
      projectSettings,
    ]);
    await Deno.remove(projectSettings);
    assert.deepEqual(await seen({}, { OPENAI_API_KEY: "k" }), [
      "from-home",
      "http://home:1/v1",
      homeSettings,
      homeSettings,
    ]);
    await Deno.remove(homeSettings);
    assert.deepEqual(await seen({}, { OPENAI_API_KEY: "k" }), [
      "gpt-4.1-mini",
      "https://api.openai.com/v1",
      "default",
      "default",
    ]);
  });
});

Deno.test("`loadSettings()` lets a model's entry beat settings.json within a folder but not across folders", async () => {
  await withTree(async (t) => {
    const pModels = await t.write(projectFile(t.project, "models.json"), {
      m1: { topP: 0.5, quirks: { streamOptions: false } },
    });
    const pSettings = await t.write(projectFile(t.project, "settings.json"), {
      temperature: 0.3,
      topP: 0.9,
      retry: { maxRetries: 5 },
    });
    const hModels = await t.write(homeFile(t.home, "models.json"), {
      m1: {
        temperature: 1.5,
        contextWindow: 32000,
        customInstructions: "Be brief.",
        quirks: { maxTokensField: "max_completion_tokens", streamOptions: true },
      },
    });
    const hSettings = await t.write(homeFile(t.home, "settings.json"), {
      maxTokens: 999,
      retry: { baseDelayMs: 250, maxRetries: 1 },
      progress: false,
      maxTurns: 7,
    });
    const r = await load(t, { model: "m1", baseUrl: "http://local:1/v1" });
    assert.ok(r.ok, !r.ok ? r.message : "");
    const s = r.settings;
    assert.deepEqual(s.params, { model: "m1", temperature: 0.3, topP: 0.5, maxTokens: 999 });
    assert.deepEqual(s.retry, {
      maxRetries: 5,
      baseDelayMs: 250,
      maxDelayMs: 30_000,
      maxRetryAfterMs: 60_000,
    });
    assert.equal(s.progress, false);
    assert.equal(s.maxTurns, 7);
    assert.equal(s.contextWindow, 32000);
    assert.equal(s.customInstructions, "Be brief.");
    assert.deepEqual(s.modelQuirks, {
      maxTokensField: "max_completion_tokens",
      streamOptions: false,
      sendReasoning: false,
    });
    assert.equal(r.sources.temperature, pSettings);
    assert.equal(r.sources.topP, pModels);
    assert.equal(r.sources.maxTokens, hSettings);
    assert.equal(r.sources["retry.maxRetries"], pSettings);
    assert.equal(r.sources["retry.baseDelayMs"], hSettings);
    assert.equal(r.sources["retry.maxDelayMs"], "default");
    assert.equal(r.sources.contextWindow, hModels);
    assert.equal(r.sources["quirks.streamOptions"], pModels);
    assert.equal(r.sources["quirks.maxTokensField"], hModels);
    assert.equal(r.sources.apiKey, undefined, "no key anywhere");
    assert.equal(s.apiKey, "");
  });
});

Deno.test("`loadSettings()` ignores other models' entries and lets flags beat a model entry", async () => {
  await withTree(async (t) => {
    await t.write(homeFile(t.home, "models.json"), {
      other: { temperature: 1.9, contextWindow: 4096 },
      mine: { temperature: 1.2 },
    });
    const r = await load(t, { model: "mine", temperature: 0.1 }, { OPENAI_API_KEY: "k" });
    assert.ok(r.ok);
    assert.equal(r.settings.params.temperature, 0.1);
    assert.equal(r.sources.temperature, "flag");
    assert.equal(r.settings.contextWindow, 128_000);
  });
});

Deno.test("`loadSettings()` reads the project folder of --cwd when it is given", async () => {
  await withTree(async (t) => {
    const nested = join(t.project, "sub");
    const path = await t.write(projectFile(nested, "settings.json"), { model: "nested" });
    const r = await loadSettings({
      homeDir: t.home,
      cwd: t.project,
      flags: { cwd: "sub" },
      env: { OPENAI_API_KEY: "k" },
    });
    assert.ok(r.ok);
    assert.equal(r.settings.params.model, "nested");
    assert.equal(r.sources.model, path);
    assert.equal(r.settings.cwd, "sub");
    assert.equal(r.sources.cwd, "flag");
  });
});

Deno.test("`configDirs()` lists a folder once when the project is the home's parent", async () => {
  await withTree(async (t) => {
    await Deno.mkdir(join(t.project, ".minoc", "config"), { recursive: true });
    const dirs = await configDirs(join(t.project, ".minoc"), t.project);
    assert.deepEqual(dirs, [{ scope: "home", dir: join(t.project, ".minoc", "config") }]);
    assert.deepEqual((await configDirs(t.home, t.project)).map((d) => d.scope), [
      "project",
      "home",
    ]);
  });
});

Deno.test("`configuredModels()` lists project models first and each name once", async () => {
  await withTree(async (t) => {
    assert.deepEqual(await configuredModels(t.home, t.project), { ok: true, models: [] });
    await t.write(homeFile(t.home, "models.json"), { a: {}, shared: { topK: 3 } });
    await t.write(projectFile(t.project, "models.json"), { shared: {}, p: {} });
    assert.deepEqual(await configuredModels(t.home, t.project), {
      ok: true,
      models: ["shared", "p", "a"],
    });
    const path = await t.write(homeFile(t.home, "models.json"), { a: { topK: "x" } });
    const r = await configuredModels(t.home, t.project);
    assert.equal(
      !r.ok && r.message,
      `Cannot read config "${path}": field "a.topK" must be an integer (got "x")`,
    );
  });
});

Deno.test("`loadSettings()` leaves out an untrusted project's baseUrl and apiKeyEnv with one warning", async () => {
  await withTree(async (t) => {
    const file = await t.write(projectFile(t.project, "settings.json"), {
      baseUrl: "http://evil:1/v1",
      apiKeyEnv: "AWS_SECRET_ACCESS_KEY",
      temperature: 0.5,
    });
    const env = { OPENAI_API_KEY: "k", AWS_SECRET_ACCESS_KEY: "aws" };
    const r = await load(t, { model: "m" }, env);
    assert.ok(r.ok);
    assert.equal(r.settings.baseURL, "https://api.openai.com/v1");
    assert.equal(r.settings.apiKey, "k");
    assert.equal(r.settings.params.temperature, 0.5, "other project values apply");
    assert.deepEqual(r.warnings, [
      `Ignored "baseUrl", "apiKeyEnv" in "${file}": the folder "${t.project}" is not trusted ` +
      "(run minoc in a terminal there to trust it)",
    ]);
  });
});

Deno.test("`loadSettings()` warns that a project's sandbox settings never apply", async () => {
  await withTree(async (t) => {
    await trustFolder(t.home, t.project);
    const file = await t.write(projectFile(t.project, "settings.json"), {
      sandbox: { writable: ["/"] },
    });
    const r = await load(t, { model: "m" }, { OPENAI_API_KEY: "k" });
    assert.ok(r.ok);
    assert.deepEqual(r.settings.sandbox, {});
    assert.equal(r.warnings?.length, 1);
    assert.match(r.warnings![0], new RegExp(`Ignored "sandbox" in "${file}"`));
  });
});

Deno.test("`loadSettings()` asks about an untrusted project and remembers a yes", async () => {
  await withTree(async (t) => {
    await t.write(projectFile(t.project, "settings.json"), { baseUrl: "http://proj:1/v1" });
    const asked: unknown[] = [];
    const r = await loadSettings({
      homeDir: t.home,
      cwd: t.project,
      flags: { model: "m" },
      env: {},
      askTrust: (q) => {
        asked.push(q.fields);
        return Promise.resolve(true);
      },
    });
    assert.ok(r.ok);
    assert.equal(r.settings.baseURL, "http://proj:1/v1");
    assert.deepEqual(asked, [{ baseUrl: "http://proj:1/v1" }]);
    assert.equal(await isFolderTrusted(t.home, t.project), true);
  });
});
