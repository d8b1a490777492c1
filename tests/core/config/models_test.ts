import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultQuirks, saveDefaultModel } from "../../../core/config/models.ts";
import { fetchServerModels } from "../../../core/llm/server_models.ts";
import { startServer } from "../../support/server.ts";

Deno.test("`defaultQuirks()` picks max_completion_tokens only for reasoning models", () => {
  for (const m of ["o1", "o3-mini", "o4-mini", "gpt-5", "gpt-5-mini", "openai/o3"]) {
    assert.equal(defaultQuirks(m).maxTokensField, "max_completion_tokens", m);
  }
  for (const m of ["gpt-4.1-mini", "gpt-4o", "llama3.1", "qwen2.5-coder:7b", "mistral-large"]) {
    assert.equal(defaultQuirks(m).maxTokensField, "max_tokens", m);
  }
  assert.equal(defaultQuirks("anything").streamOptions, true);
});

Deno.test("`fetchServerModels()` lists the server's model ids sorted when it offers /models", async () => {
  await using server = await startServer({ models: ["zeta", "alpha", "mid"], apiKey: "k1" });
  const r = await fetchServerModels({ baseURL: server.baseUrl + "/", apiKey: "k1" });
  assert.deepEqual(r, { ok: true, models: ["alpha", "mid", "zeta"] });
  assert.equal(server.requests[0].path, "/v1/models");
  assert.equal(server.requests[0].headers.authorization, "Bearer k1");
});

Deno.test("`fetchServerModels()` says the server does not list models when it answers 404", async () => {
  await using server = await startServer();
  const baseURL = server.baseUrl.replace(/\/v1$/, "/other");
  const r = await fetchServerModels({ baseURL, apiKey: "" });
  assert.deepEqual(r, {
    ok: false,
    message: `Cannot list models at "${baseURL}/models" (404): the server does not list its models`,
  });
  assert.equal(server.requests[0].headers.authorization, undefined, "no key, no header");
});

Deno.test("`fetchServerModels()` reports the status when the key is wrong", async () => {
  await using server = await startServer({ apiKey: "right" });
  const r = await fetchServerModels({ baseURL: server.baseUrl, apiKey: "wrong" });
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.message : "", /\/v1\/models" \(401\)$/);
});

Deno.test("`fetchServerModels()` returns a message when nothing listens", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const r = await fetchServerModels({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "" });
  assert.equal(r.ok, false);
  assert.match(
    !r.ok ? r.message : "",
    new RegExp(`^Cannot list models at "http://127.0.0.1:${port}/v1/models": `),
  );
});

Deno.test("`saveDefaultModel()` sets the model and keeps every other field", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "config", "settings.json");
    assert.deepEqual(await saveDefaultModel(path, "first"), { ok: true });
    assert.deepEqual(JSON.parse(await Deno.readTextFile(path)), { model: "first" });
    await Deno.writeTextFile(
      path,
      '{"retry": {"maxRetries": 1}, "model": "old", "progress": false}',
    );
    assert.deepEqual(await saveDefaultModel(path, "qwen3"), { ok: true });
    assert.deepEqual(JSON.parse(await Deno.readTextFile(path)), {
      retry: { maxRetries: 1 },
      model: "qwen3",
      progress: false,
    });
    const saved = await Deno.readTextFile(path);
    const empty = await saveDefaultModel(path, "");
    assert.equal(
      !empty.ok && empty.message,
      `Invalid model name "": expected a name`,
    );
    assert.equal(await Deno.readTextFile(path), saved);
    assert.deepEqual([...Deno.readDirSync(join(dir, "config"))].map((e) => e.name), [
      "settings.json",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`saveDefaultModel()` leaves a broken file untouched and says why", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "settings.json");
    const text = '{"model": "x", "retry": {"maxRetries": -1}}';
    await Deno.writeTextFile(path, text);
    const r = await saveDefaultModel(path, "y");
    assert.deepEqual(r, {
      ok: false,
      message:
        `Cannot read config "${path}": field "retry.maxRetries" must be from 0 to 20 (got -1)`,
    });
    assert.equal(await Deno.readTextFile(path), text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
