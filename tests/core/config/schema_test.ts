import assert from "node:assert/strict";
import { fieldName, parseConfigText } from "../../../core/config/schema.ts";

const PATH = "/x/.minoc/config/settings.json";
const PREFIX = `Cannot read config "${PATH}": `;

function problems(text: string, kind: "settings" | "models" = "settings"): string[] {
  const r = parseConfigText(text, PATH, kind);
  assert.equal(r.ok, false, "expected the text to be rejected");
  return r.ok ? [] : r.problems.map((p) => {
    assert.ok(p.startsWith(PREFIX), `"${p}" names the file`);
    return p.slice(PREFIX.length);
  });
}

Deno.test("`parseConfigText()` accepts a full settings file and a models file", () => {
  const settings = {
    $schema: "https://example.invalid/settings.schema.json",
    baseUrl: "http://localhost:11434/v1",
    model: "llama3.1",
    apiKeyEnv: "OLLAMA_KEY",
    temperature: 0.2,
    topP: 0.9,
    topK: 40,
    maxTokens: 4096,
    retry: { maxRetries: 0, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 30000 },
    progress: false,
    maxTurns: 40,
    contextWindow: 131072,
  };
  const r = parseConfigText(JSON.stringify(settings), PATH, "settings");
  assert.deepEqual(r, { ok: true, value: settings });
  const models = {
    "qwen2.5-coder:7b": {
      customInstructions: "Think first.",
      quirks: { maxTokensField: "max_completion_tokens", streamOptions: false },
    },
  };
  assert.deepEqual(parseConfigText(JSON.stringify(models), PATH, "models"), {
    ok: true,
    value: models,
  });
});

Deno.test("`parseConfigText()` gives line and column when the JSON is broken", () => {
  assert.deepEqual(problems('{\n  "model": "a",\n  "maxTurns": 3,\n}'), [
    "invalid JSON at line 4, column 1: expected double-quoted property name",
  ]);
  assert.deepEqual(problems('{ "model": '), [
    "invalid JSON at line 1, column 12: unexpected end of JSON input",
  ]);
  assert.deepEqual(problems('{\n  "progress": tru\n}'), [
    'invalid JSON at line 2, column 18: unexpected character "\\n"',
  ]);
  assert.deepEqual(problems('{\n  "model": x\n}'), [
    'invalid JSON at line 2, column 12: unexpected character "x"',
  ]);
  assert.deepEqual(problems("  \n"), ["the file is empty (expected a JSON object such as {})"]);
});

Deno.test("`parseConfigText()` names the field and the expected type when a type is wrong", () => {
  assert.deepEqual(problems('{"retry": {"maxRetries": 2.5}}'), [
    'field "retry.maxRetries" must be an integer (got 2.5)',
  ]);
  assert.deepEqual(problems('{"temperature": "0.2"}'), [
    'field "temperature" must be a number (got "0.2")',
  ]);
  assert.deepEqual(problems('{"progress": "yes"}'), [
    'field "progress" must be true or false (got "yes")',
  ]);
  assert.deepEqual(problems('{"retry": 3}'), ['field "retry" must be an object (got 3)']);
  assert.deepEqual(problems("[1, 2]"), ["expected a JSON object (got an array)"]);
});

Deno.test("`parseConfigText()` lists the allowed fields when a field is unknown", () => {
  assert.deepEqual(problems('{"retry": {"maxRetrys": 1}}'), [
    'unknown field "retry.maxRetrys" (expected one of: maxRetries, baseDelayMs, maxDelayMs, maxRetryAfterMs)',
  ]);
  assert.deepEqual(problems('{"m": {"quirks": {"noStream": true}}}', "models"), [
    'unknown field "m.quirks.noStream" (expected one of: maxTokensField, streamOptions, sendReasoning)',
  ]);
  assert.deepEqual(problems('{"apiKey": "sk-secret"}'), [
    'field "apiKey" is not allowed: keep the key in an environment variable and put its name in "apiKeyEnv"',
  ]);
});

Deno.test("`parseConfigText()` gives the range when a number is out of range", () => {
  assert.deepEqual(problems('{"temperature": 2.5}'), [
    'field "temperature" must be from 0 to 2 (got 2.5)',
  ]);
  assert.deepEqual(problems('{"maxTurns": 0, "topP": -0.1}'), [
    'field "topP" must be from 0 to 1 (got -0.1)',
    'field "maxTurns" must be from 1 to 10000 (got 0)',
  ]);
  assert.deepEqual(problems('{"qwen2.5:7b": {"contextWindow": 12}}', "models"), [
    "field \"['qwen2.5:7b'].contextWindow\" must be from 256 to 100000000 (got 12)",
  ]);
});

Deno.test("`parseConfigText()` lists the choices when a value is not one of them", () => {
  assert.deepEqual(problems('{"o3": {"quirks": {"maxTokensField": "max_output"}}}', "models"), [
    'field "o3.quirks.maxTokensField" must be one of "max_tokens", "max_completion_tokens" (got "max_output")',
  ]);
  assert.deepEqual(problems('{"baseUrl": "localhost:8080"}'), [
    'field "baseUrl" must be an http:// or https:// URL (got "localhost:8080")',
  ]);
  assert.deepEqual(problems('{"apiKeyEnv": "MY KEY"}'), [
    'field "apiKeyEnv" must be an environment variable name such as OPENAI_API_KEY (got "MY KEY")',
  ]);
  assert.deepEqual(problems('{"model": ""}'), ['field "model" must not be empty (got "")']);
});

Deno.test("`fieldName()` quotes segments that are not plain names", () => {
  assert.equal(fieldName(["retry", "maxRetries"]), "retry.maxRetries");
  assert.equal(fieldName(["gpt-4.1", "topK"]), "['gpt-4.1'].topK");
  assert.equal(fieldName(["list", 2]), "list[2]");
});
