import assert from "node:assert/strict";
import { join } from "node:path";
import { getLogger } from "@logtape/logtape";
import { setupLogs } from "../../../core/history/logs.ts";

async function withLogs(
  opts: { debug: boolean; maxSize?: number },
  fn: (dir: string) => void,
): Promise<Record<string, string>> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_logs_" });
  try {
    const logs = await setupLogs(join(dir, "logs"), opts);
    try {
      fn(dir);
    } finally {
      await logs.dispose();
    }
    const files: Record<string, string> = {};
    for await (const e of Deno.readDir(join(dir, "logs"))) {
      files[e.name] = await Deno.readTextFile(join(dir, "logs", e.name));
    }
    return files;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("`setupLogs()` routes info to app.log, errors with stack to error.log, retries to retry.log", async () => {
  const files = await withLogs({ debug: false }, () => {
    const log = getLogger(["minoc", "agent"]);
    log.debug("hidden detail");
    log.info("Session {id} started", { id: "s1" });
    log.error("Tool failed", { error: new Error("disk on fire") });
    getLogger(["minoc", "retry"]).warn("Retry {n} after 429", { n: 1 });
    getLogger(["minoc", "retry"]).debug("backoff detail");
  });
  assert.deepEqual(Object.keys(files).sort(), ["app.log", "error.log", "retry.log"]);
  assert.match(files["app.log"], /\[INF\] minoc·agent: Session "s1" started/);
  assert.match(files["app.log"], /\[ERR\] minoc·agent: Tool failed/);
  assert.match(files["app.log"], /Retry 1 after 429/);
  assert.doesNotMatch(files["app.log"], /hidden detail|backoff detail/);
  assert.doesNotMatch(files["error.log"], /Session/);
  assert.match(files["error.log"], /Tool failed\nError: disk on fire\n\s+at /);
  assert.match(files["retry.log"], /Retry 1 after 429/);
  assert.match(files["retry.log"], /backoff detail/);
  assert.doesNotMatch(files["retry.log"], /Session/);
});

Deno.test("`setupLogs()` writes debug.log with every level only when debug is on", async () => {
  const files = await withLogs({ debug: true }, () => {
    getLogger(["minoc", "llm"]).debug("request body {size}", { size: 12 });
    getLogger(["minoc", "llm"]).trace("chunk");
  });
  assert.match(files["debug.log"], /\[DBG\] minoc·llm: request body 12/);
  assert.match(files["debug.log"], /\[TRC\] minoc·llm: chunk/);
  assert.equal(files["app.log"] ?? "", "");
});

Deno.test("`setupLogs()` never writes an API key to any file", async () => {
  const secrets = ["sk-proj-AbC123xyz789", "sk-or-v1-deadbeefcafe", "plainsecretvalue", "tok_77aa"];
  const files = await withLogs({ debug: true }, () => {
    const log = getLogger(["minoc", "llm"]);
    log.info(`Connecting with key ${secrets[0]}`);
    log.info("Config {config}", { config: { apiKey: secrets[2], model: "m" } });
    log.info("Headers {h}", { h: { Authorization: `Bearer ${secrets[3]}`, accept: "json" } });
    log.warn("URL {url}", { url: `https://x/v1?api_key=${secrets[2]}&a=1` });
    log.error("Request failed", { error: new Error(`401 for key ${secrets[1]}`) });
    log.debug("Raw {body}", { body: `{"api_key": "${secrets[2]}", "n": 1}` });
    getLogger(["minoc", "retry"]).info("Retrying with {opts}", { opts: { api_key: secrets[2] } });
  });
  const all = Object.values(files).join("\n");
  for (const secret of secrets) assert.ok(!all.includes(secret), `"${secret}" leaked:\n${all}`);
  assert.match(files["app.log"], /\[REDACTED\]/);
  assert.match(files["app.log"], /model: "m"/);
  assert.match(files["error.log"], /401 for key \[REDACTED\]/);
});

Deno.test("`setupLogs()` rotates a log once it reaches its size", async () => {
  const files = await withLogs({ debug: false, maxSize: 1000 }, () => {
    const log = getLogger(["minoc", "agent"]);
    for (let i = 0; i < 60; i++) log.info("Line {i} with some padding text to fill", { i });
  });
  assert.ok("app.log.1" in files && "app.log.2" in files, Object.keys(files).join(", "));
  assert.ok(!("app.log.4" in files), "keeps at most maxFiles rotated files");
  for (const [name, text] of Object.entries(files)) {
    if (name.startsWith("app.log")) {
      assert.ok(text.length <= 1100, `${name} is ${text.length} bytes`);
    }
  }
  assert.match(files["app.log"], /Line 59 /);
});
