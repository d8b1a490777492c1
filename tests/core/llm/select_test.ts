import assert from "node:assert/strict";
import { createProvider, PROVIDER_NAMES } from "../../../core/llm/select.ts";
import { startServer } from "../../support/server.ts";

const BASE = { baseURL: "http://127.0.0.1:9/v1", apiKey: "k", params: { model: "m" } };

Deno.test("`createProvider()` builds the openai provider when no name is given", () => {
  const provider = createProvider(BASE);
  assert.equal(provider.name, "openai");
  assert.equal(provider.model, "m");
  assert.equal(provider.endpoint, BASE.baseURL);
  assert.deepEqual(PROVIDER_NAMES, ["openai", "bridge"]);
});

Deno.test("`createProvider()` passes the connection through when the name is openai", async () => {
  await using server = await startServer({ replies: [{ text: "via select" }] });
  const provider = createProvider({
    provider: "openai",
    baseURL: server.baseUrl,
    apiKey: "sel-key",
    params: { model: "chosen", topK: 5 },
  });
  let text = "";
  for await (const event of provider.stream({ messages: [{ role: "user", content: "hi" }] })) {
    if (event.type === "text") text += event.text;
  }
  assert.equal(text, "via select");
  assert.equal(server.requests[0].body.model, "chosen");
  assert.equal(server.requests[0].body.top_k, 5);
  assert.equal(server.requests[0].headers.authorization, "Bearer sel-key");
});

Deno.test("`createProvider()` throws naming the value and the known names when the name is unknown", () => {
  for (const name of ["anthropic", "toString", "__proto__"]) {
    assert.throws(
      () => createProvider({ ...BASE, provider: name }),
      { message: `Unknown provider "${name}": expected one of "openai", "bridge"` },
    );
  }
});
