/**
 * End-to-end: `minoc doctor` against the scripted server: a good server, one
 * that reports no usage, one whose context window cuts a long prompt, a
 * reply without a tool call, a server that is down, and no configuration.
 */
import assert from "node:assert/strict";
import { startServer } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";

const CALL = {
  text: "<tool_call>\n<read_file>\n<path>README.md</path>\n</read_file>\n</tool_call>",
};
const ECHO = { text: "PLUM-4821" };

async function doctor(baseUrl: string | null, ...more: (string | Record<string, string>)[]) {
  const env = more.find((m) => typeof m !== "string");
  const flags = more.filter((m): m is string => typeof m === "string");
  const dir = await Deno.makeTempDir({ prefix: "minoc_doctor_" });
  try {
    const args = ["doctor", "--model", "m", ...(baseUrl ? ["--base-url", baseUrl] : []), ...flags];
    return await runMinoc(args, { cwd: dir, env });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function verdicts(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of stdout.matchAll(/^ {2}(pass|warn|FAIL|skip) {2}(\S+(?: \S+)?)\s{2,}/gm)) {
    out[m[2].trim()] = m[1];
  }
  return out;
}

Deno.test("doctor: a good server passes every check and exits 0", async () => {
  await using server = await startServer({ replies: [CALL, ECHO], models: ["m", "other"] });
  const r = await doctor(server.baseUrl);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(verdicts(r.stdout), {
    config: "pass",
    sandbox: "pass",
    commands: "pass",
    server: "pass",
    models: "pass",
    "tool call": "pass",
    dialect: "pass",
    reasoning: "skip",
    streaming: "pass",
    usage: "pass",
    context: "pass",
  });
  assert.match(r.stdout, /skill scripts confined by Landlock \(ABI \d+\)/);
  assert.match(r.stdout, /parsed read_file in \d+/);
  assert.match(r.stdout, /"m" is listed \(2: m, other\)/);
  assert.match(r.stdout, /came back whole: the model repeated the code; the server counted/);
  assert.match(r.stdout, /Verdict: ready \(10 passed\)/);
  const [probe, long] = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
  assert.equal(probe.body.stream, true);
  assert.match(probe.body.messages[0].content, /<read_file>/);
  const prompt = long.body.messages[0].content as string;
  assert.match(prompt, /^Remember this code: PLUM-4821\./);
  assert.ok(prompt.length > 20_000, `${prompt.length} characters`);
});

Deno.test("doctor: no usage reporting is a warning, and the echo alone proves the context", async () => {
  await using server = await startServer({
    replies: [{ ...CALL, usage: false }, { ...ECHO, usage: false }],
    models: ["m"],
  });
  const r = await doctor(server.baseUrl);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const v = verdicts(r.stdout);
  assert.equal(v.usage, "warn");
  assert.equal(v.context, "pass");
  assert.match(r.stdout, /reports no token usage/);
  assert.match(r.stdout, /Verdict: ready \(9 passed, 1 with warnings\)/);
});

Deno.test("doctor: a long prompt the server cut fails the context check with the likely window", async () => {
  await using server = await startServer({
    replies: [CALL, {
      text: "I do not know.",
      usage: { prompt_tokens: 2048, completion_tokens: 4 },
    }],
    models: ["m"],
  });
  const r = await doctor(server.baseUrl, "--context-tokens", "6000");
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(verdicts(r.stdout).context, "FAIL");
  assert.match(r.stdout, /the prompt was cut: 6,\d{3} tokens sent, the server counted 2,048/);
  assert.match(
    r.stdout,
    /context window is probably about 2,048 tokens, not the 128,000 configured/,
  );
  assert.match(r.stdout, /Verdict: not ready, 1 of 11 checks failed/);
});

Deno.test("doctor: names the dialect the model answered in and where its reasoning arrives", async () => {
  const HERMES = {
    text: '<tool_call>\n{"name": "read_file", "arguments": {"path": "README.md"}}\n</tool_call>',
    reasoning: { field: "reasoning_content" as const, chunks: ["The user wants ", "README.md."] },
  };
  await using server = await startServer({ replies: [HERMES] });
  const r = await doctor(server.baseUrl, "--context-tokens", "0");
  const v = verdicts(r.stdout);
  assert.equal(v["tool call"], "pass", r.stdout);
  assert.equal(v.dialect, "warn");
  assert.match(r.stdout, /the model wrote the "hermes_json" format: minoc reads it/);
  assert.equal(v.reasoning, "pass");
  assert.match(r.stdout, /reasoning +in a separate delta field \(25 characters\)/);
});

Deno.test("doctor: finds reasoning in <think> tags of the text", async () => {
  const THINK = { text: "<think>\nRead it.\n</think>\n" + CALL.text };
  await using server = await startServer({ replies: [THINK] });
  const r = await doctor(server.baseUrl, "--context-tokens", "0");
  assert.match(r.stdout, /pass {2}reasoning +in <think> tags in the text \(8 characters\)/);
  assert.match(r.stdout, /pass {2}dialect +the model wrote minoc's own form/);
});

Deno.test("doctor: a reply without a tool call fails; --context-tokens 0 skips the long prompt", async () => {
  await using server = await startServer({ replies: [{ text: "Sure, I will read it." }] });
  const r = await doctor(server.baseUrl, "--context-tokens", "0");
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const v = verdicts(r.stdout);
  assert.equal(v["tool call"], "FAIL");
  assert.equal(v.models, "warn", "m is not among the server's models");
  assert.equal(v.context, "skip");
  assert.match(r.stdout, /no tool call in the reply .*Sure, I will read it\./);
  assert.equal(server.requests.filter((q) => q.path.endsWith("/chat/completions")).length, 1);
});

Deno.test("doctor: a server that is down fails and skips the checks that need it", async () => {
  const server = await startServer();
  const url = server.baseUrl;
  await server.close();
  const r = await doctor(url);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.deepEqual(verdicts(r.stdout), {
    config: "pass",
    sandbox: "pass",
    commands: "pass",
    server: "FAIL",
    models: "skip",
    "tool call": "skip",
    streaming: "skip",
    usage: "skip",
    context: "skip",
  });
  assert.match(r.stdout, /cannot reach http:\/\/127\.0\.0\.1:\d+\/v1/);
});

Deno.test("doctor: no configuration fails the first check and says how to fix it; no sandbox warns", async () => {
  const r = await doctor(null, { MINOC_NO_CONFINE: "1" });
  assert.match(
    r.stdout,
    /warn {2}sandbox {4}no OS sandbox \(MINOC_NO_CONFINE=1 turned it off\); bash\/sh scripts are refused/,
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(verdicts(r.stdout).config, "FAIL");
  assert.match(r.stdout, /No model server configured/);
});
