import assert from "node:assert/strict";
import { REDACTED, redactText, redactValue } from "../../../core/history/redact.ts";

Deno.test("`redactText()` hides sk- keys, bearer tokens and key assignments", () => {
  assert.equal(redactText("key sk-abc123DEF456 used"), `key ${REDACTED} used`);
  assert.equal(redactText("Authorization: Bearer abc.def-ghi"), `Authorization: ${REDACTED}`);
  assert.equal(redactText("curl -H 'Bearer xyz789'"), `curl -H 'Bearer ${REDACTED}'`);
  assert.equal(redactText("?api_key=s3cr3t&x=1"), `?api_key=${REDACTED}&x=1`);
  assert.equal(redactText('{"apiKey":"s3cr3t","n":1}'), `{"apiKey":"${REDACTED}","n":1}`);
  assert.equal(redactText("the task-list is fine"), "the task-list is fine");
});

Deno.test("`redactValue()` blanks key-named properties at any depth and scans strings", () => {
  const value = {
    model: "m",
    apiKey: "anything",
    nested: { api_key: 42, list: [{ Authorization: "x" }, "sk-zzzzzzzz"] },
  };
  assert.deepEqual(redactValue(value), {
    model: "m",
    apiKey: REDACTED,
    nested: { api_key: REDACTED, list: [{ Authorization: REDACTED }, REDACTED] },
  });
  assert.equal(value.apiKey, "anything", "the original is left alone");
});

Deno.test("`redactValue()` copies class instances, headers and errors, and stops at cycles", () => {
  class Client {
    apiKey = "hidden";
    baseURL = "http://127.0.0.1";
  }
  const cyclic: Record<string, unknown> = { name: "loop" };
  cyclic.self = cyclic;
  const error = new Error("bad key sk-abcdefgh");
  const out = redactValue({
    client: new Client(),
    headers: new Headers({ authorization: "Bearer t0k3n" }),
    cyclic,
    error,
  }) as Record<string, Record<string, unknown>>;
  assert.deepEqual(out.client, { apiKey: REDACTED, baseURL: "http://127.0.0.1" });
  assert.deepEqual(out.headers, { authorization: REDACTED });
  assert.equal(out.cyclic.self, "[…]");
  assert.ok(out.error instanceof Error);
  assert.equal((out.error as unknown as Error).message, `bad key ${REDACTED}`);
  assert.ok(!(out.error as unknown as Error).stack?.includes("sk-abcdefgh"));
});

Deno.test("`redactText()` hides keys after escaped newlines, in URL credentials and query parameters", () => {
  assert.equal(
    redactText('"out":"A=1\\nMY_SECRET=abc123\\nB=2"'),
    `"out":"A=1\\nMY_SECRET=${REDACTED}\\nB=2"`,
  );
  assert.equal(redactText("GH_TOKEN: ghp_x1y2"), `GH_TOKEN: ${REDACTED}`);
  assert.equal(
    redactText("git clone https://me:pa55word@git.example.com/r.git"),
    `git clone https://me:${REDACTED}@git.example.com/r.git`,
  );
  assert.equal(
    redactText("https://x.io/a?key=AIza123&token=t0k&v=2"),
    `https://x.io/a?key=${REDACTED}&token=${REDACTED}&v=2`,
  );
  assert.equal(
    redactText("https://ghp_abcdefghijklmnopqrstu@github.com/o/r"),
    `https://${REDACTED}@github.com/o/r`,
  );
  assert.equal(
    redactText('{"totalTokens":12,"max_tokens":5}'),
    '{"totalTokens":12,"max_tokens":5}',
  );
});

Deno.test("`redactText()` hides the configured key's value wherever it shows", async () => {
  const { protectCredentials } = await import("../../../core/tools/child_env.ts");
  protectCredentials({ values: ["plainkeywithoutprefix42"] });
  assert.equal(redactText("echo plainkeywithoutprefix42!"), `echo ${REDACTED}!`);
});

Deno.test("`redactText()` leaves code with key-like lower-case names alone", () => {
  assert.equal(
    redactText("const sort_key = a; primary_key: true"),
    "const sort_key = a; primary_key: true",
  );
});

Deno.test("`redactText()` hides keys in JSON written inside JSON (escaped quotes), and keeps the escapes", () => {
  const inner = JSON.stringify({
    api_key: "abc123secret",
    headers: { Authorization: "Bearer tok456secret" },
    env: 'OPENAI_API_KEY="sk_live_zzz"',
  });
  const outer = JSON.stringify({ params: { content: inner } });
  const out = redactText(outer);
  for (const secret of ["abc123secret", "tok456secret", "sk_live_zzz"]) {
    assert.ok(!out.includes(secret), `${secret} is hidden in ${out}`);
  }
  const back = JSON.parse(JSON.parse(out).params.content);
  assert.equal(back.api_key, REDACTED);
  assert.equal(back.headers.Authorization, REDACTED);
});
