import assert from "node:assert/strict";
import {
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_TURNS,
  DEFAULT_OPENAI_MODEL,
  mergeSettings,
  OPENAI_BASE_URL,
  resolveSettings,
} from "../../../core/config/settings.ts";
import { DEFAULT_RETRY_POLICY } from "../../../core/llm/retry.ts";

Deno.test("`resolveSettings()` explains what to set when neither key nor base URL is given", () => {
  const r = resolveSettings({}, {}, "/work");
  assert.equal(r.ok, false);
  assert.match(
    !r.ok ? r.message : "",
    /^No model server configured: set OPENAI_API_KEY \(or --api-key\)/,
  );
});

Deno.test("`resolveSettings()` uses OpenAI and its default model when only a key is given", () => {
  const r = resolveSettings({}, { OPENAI_API_KEY: " sk-abc " }, "/work");
  assert.ok(r.ok);
  assert.equal(r.settings.baseURL, OPENAI_BASE_URL);
  assert.equal(r.settings.apiKey, "sk-abc");
  assert.equal(r.settings.params.model, DEFAULT_OPENAI_MODEL);
  assert.equal(r.settings.maxTurns, DEFAULT_MAX_TURNS);
  assert.equal(r.settings.cwd, "/work");
  assert.deepEqual(r.settings.retry, DEFAULT_RETRY_POLICY);
  assert.equal(r.settings.progress, true);
  assert.equal(r.settings.contextWindow, DEFAULT_CONTEXT_WINDOW);
  assert.deepEqual(r.settings.modelQuirks, {
    maxTokensField: "max_tokens",
    streamOptions: true,
    sendReasoning: false,
  });
  assert.equal(r.settings.customInstructions, undefined);
});

Deno.test("`resolveSettings()` asks for a model when a non-OpenAI base URL has none", () => {
  const r = resolveSettings({ baseUrl: "http://localhost:11434/v1/" }, {}, "/w");
  assert.equal(r.ok, false);
  assert.equal(
    !r.ok && r.message,
    'No model named for "http://localhost:11434/v1": set --model or MINOC_MODEL ' +
      '(for example "llama3.1" on Ollama)',
  );
});

Deno.test("`resolveSettings()` rejects a base URL that is not http(s)", () => {
  const r = resolveSettings({}, { OPENAI_BASE_URL: "localhost:11434" }, "/w");
  assert.equal(
    !r.ok && r.message,
    'Invalid base URL "localhost:11434": expected an http:// or https:// URL such as ' +
      '"http://localhost:11434/v1"',
  );
});

Deno.test("`resolveSettings()` lets flags win over environment and strips trailing slashes", () => {
  const r = resolveSettings(
    { baseUrl: "http://h:1/v1//", model: "m-flag", apiKey: "k-flag", temperature: 0.5, topK: 7 },
    { OPENAI_BASE_URL: "http://env/v1", MINOC_MODEL: "m-env", OPENAI_API_KEY: "k-env" },
    "/w",
  );
  assert.ok(r.ok);
  assert.equal(r.settings.baseURL, "http://h:1/v1");
  assert.equal(r.settings.apiKey, "k-flag");
  assert.deepEqual(r.settings.params, { model: "m-flag", temperature: 0.5, topK: 7 });
});

Deno.test("`mergeSettings()` reads the key from the variable apiKeyEnv names when a file sets it", () => {
  const r = mergeSettings({
    flags: {},
    env: { OPENAI_API_KEY: "openai-key", GROQ_KEY: "groq-key" },
    files: [{
      settingsPath: "/p/settings.json",
      settings: { apiKeyEnv: "GROQ_KEY", baseUrl: "https://api.groq.com/openai/v1", model: "x" },
      modelsPath: "/p/models.json",
    }],
    defaultCwd: "/w",
  });
  assert.ok(r.ok);
  assert.equal(r.settings.apiKey, "groq-key");
  assert.equal(r.settings.apiKeyEnv, "GROQ_KEY");
  assert.equal(r.sources.apiKey, "env GROQ_KEY");
  assert.equal(r.sources.apiKeyEnv, "/p/settings.json");
});

Deno.test("`mergeSettings()` names the configured key variable when nothing is configured", () => {
  const r = mergeSettings({
    flags: {},
    env: { OPENAI_API_KEY: "ignored" },
    files: [{ settingsPath: "/s", settings: { apiKeyEnv: "MY_KEY" }, modelsPath: "/m" }],
    defaultCwd: "/w",
  });
  assert.match(!r.ok ? r.message : "", /^No model server configured: set MY_KEY \(or --api-key\)/);
});

Deno.test("`mergeSettings()` gives reasoning models max_completion_tokens by default", () => {
  const r = mergeSettings({
    flags: { model: "o4-mini", apiKey: "k" },
    env: {},
    files: [],
    defaultCwd: "/w",
  });
  assert.ok(r.ok);
  assert.equal(r.settings.modelQuirks.maxTokensField, "max_completion_tokens");
  assert.equal(r.sources["quirks.maxTokensField"], "default");
  assert.equal(r.sources.model, "flag");
  assert.equal(r.sources.cwd, "default");
});
