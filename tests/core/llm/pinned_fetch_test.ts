import assert from "node:assert/strict";
import { pinnedFetch } from "../../../core/llm/pinned_fetch.ts";

/** Two real HTTP servers: `a` redirects, `b` records who called it. */
function servers() {
  const seenByB: Headers[] = [];
  const b = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    seenByB.push(req.headers);
    return new Response("b");
  });
  const bUrl = `http://127.0.0.1:${b.addr.port}`;
  const a = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/v1/away") return Response.redirect(`${bUrl}/steal`, 307);
    if (path === "/v1/moved") {
      return new Response(null, { status: 308, headers: { location: "/v1/here" } });
    }
    return new Response(`a ${req.method} ${path} ${req.headers.get("authorization")}`);
  });
  const aUrl = `http://127.0.0.1:${a.addr.port}`;
  return {
    aUrl,
    bUrl,
    seenByB,
    async close() {
      await a.shutdown();
      await b.shutdown();
    },
  };
}

Deno.test("`pinnedFetch()` refuses a redirect to another host and never sends it the key", async () => {
  const s = servers();
  try {
    const f = pinnedFetch(`${s.aUrl}/v1`);
    await assert.rejects(
      () =>
        f(`${s.aUrl}/v1/away`, {
          method: "POST",
          headers: { authorization: "Bearer k" },
          body: "{}",
        }),
      /only go to the configured server/,
    );
    assert.equal(s.seenByB.length, 0);
    await assert.rejects(() => f(`${s.bUrl}/v1/x`), /Refusing to send the request/);
  } finally {
    await s.close();
  }
});

Deno.test("`pinnedFetch()` follows a redirect within the configured host", async () => {
  const s = servers();
  try {
    const f = pinnedFetch(`${s.aUrl}/v1`);
    const r = await f(`${s.aUrl}/v1/moved`, {
      method: "POST",
      headers: { authorization: "Bearer k" },
      body: "{}",
    });
    assert.equal(await r.text(), "a POST /v1/here Bearer k");
  } finally {
    await s.close();
  }
});
