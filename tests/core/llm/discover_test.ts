/**
 * Local-server discovery against real sockets: scripted servers, a closed
 * port, and a listener that accepts connections but never answers.
 */
import { closedPort, portOf } from "../../support/ports.ts";
import assert from "node:assert/strict";
import {
  chatCandidates,
  discoverPorts,
  discoverServers,
  isChatModel,
  KNOWN_PORTS,
  rankModels,
} from "../../../core/llm/discover.ts";
import { startServer } from "../../support/server.ts";

Deno.test("discoverPorts() gives the usual ports when MINOC_DISCOVER_PORTS is unset", () => {
  const r = discoverPorts({});
  assert.ok(r.ok);
  assert.deepEqual(r.ports.map((p) => p.port), [11434, 1234, 8080, 8000, 1337, 5000]);
  assert.equal(r.ports[0].label, "Ollama");
});

Deno.test("discoverPorts() reads a list, 'none', and names a bad entry", () => {
  const list = discoverPorts({ MINOC_DISCOVER_PORTS: " 1234 , 4567" });
  assert.ok(list.ok);
  assert.deepEqual(list.ports, [{ port: 1234, label: "LM Studio" }, {
    port: 4567,
    label: "a server",
  }]);
  const none = discoverPorts({ MINOC_DISCOVER_PORTS: "none" });
  assert.ok(none.ok && none.ports.length === 0);
  const bad = discoverPorts({ MINOC_DISCOVER_PORTS: "1234,abc" });
  assert.ok(!bad.ok);
  assert.match(
    bad.message,
    /^Invalid MINOC_DISCOVER_PORTS "1234,abc": expected port numbers .*\(got "abc"\)$/,
  );
  assert.ok(!discoverPorts({ MINOC_DISCOVER_PORTS: "70000" }).ok);
});

Deno.test("rankModels() puts chat models before embedding, rerank and speech models", () => {
  const ids = ["nomic-embed-text", "llama3.1:8b", "bge-reranker", "whisper-1", "qwen2.5-coder"];
  assert.deepEqual(rankModels(ids).slice(0, 2), ["llama3.1:8b", "qwen2.5-coder"]);
  assert.equal(isChatModel("text-embedding-3-small"), false);
  assert.equal(isChatModel("gpt-4.1-mini"), true);
});

Deno.test("discoverServers() finds the servers that answer, in port order, and skips closed ports", async () => {
  await using a = await startServer({ models: ["text-embedding-3-small", "chat-a"] });
  await using b = await startServer({ models: ["nomic-embed-text"] });
  const ports = [
    { port: closedPort(), label: "nobody" },
    { port: portOf(a.baseUrl), label: "A" },
    { port: portOf(b.baseUrl), label: "B" },
  ];
  const found = await discoverServers({ ports, budgetMs: 5_000 });
  assert.deepEqual(found.map((f) => f.label), ["A", "B"]);
  assert.equal(found[0].baseURL, a.baseUrl);
  assert.deepEqual(found[0].models, ["chat-a", "text-embedding-3-small"]);
  // B has only an embedding model: no candidate for a chat.
  assert.deepEqual(chatCandidates(found).map((c) => [c.server.label, c.model]), [["A", "chat-a"]]);
  assert.equal(a.requests[0].path, "/v1/models");
});

Deno.test("discoverServers() gives up on a server that never answers when the budget ends", async () => {
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  try {
    const port = (silent.addr as Deno.NetAddr).port;
    const found = await discoverServers({ ports: [{ port, label: "silent" }], budgetMs: 200 });
    assert.deepEqual(found, []);
  } finally {
    silent.close();
    for (const c of held) c.close();
    await accepting.catch(() => {});
  }
});

Deno.test("discoverServers() with no ports asks nobody", async () => {
  assert.deepEqual(await discoverServers({ ports: [] }), []);
  assert.ok(KNOWN_PORTS.length >= 6);
});
