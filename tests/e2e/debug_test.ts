/**
 * End-to-end: `--debug` writes `.minoc/logs/debug.log` (requests and
 * responses in full, no API key, parse results, verdicts with rules, states,
 * timings), prints one line per phase, and `minoc debug last` sums it up;
 * without debug mode no debug.log appears; `run --step` is refused.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";

const call = toolCall;

const SCRIPT = [
  { text: "Reading.\n" + call("read_file", { path: "notes.md" }) },
  { text: call("write_to_file", { path: "notes.md", content: "\nline one\nline two\n" }) },
  { text: call("attempt_completion", { result: "Added a line." }) },
];

const KEY = `sk-minoc-${crypto.randomUUID()}`;

async function project(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_debug_e2e_" }));
  await Deno.writeTextFile(join(dir, "notes.md"), "line one\n");
  return dir;
}

const logsDir = (dir: string) => join(dir, ".home", ".minoc", "logs");

Deno.test("run --debug: debug.log has every request and response, no key, verdicts, states and timings", async () => {
  const dir = await project();
  await using server = await startServer({ replies: SCRIPT, apiKey: KEY });
  try {
    const r = await runMinoc(
      [
        "run",
        "add a line to notes.md",
        "--debug",
        "--yes",
        "--base-url",
        server.baseUrl,
        "--model",
        "m1",
      ],
      { cwd: dir, env: { OPENAI_API_KEY: KEY } },
    );
    assert.equal(r.code, 0, r.stderr);
    const log = await Deno.readTextFile(join(logsDir(dir), "debug.log"));
    assert.ok(!log.includes(KEY), "the API key is not in debug.log");
    assert.ok(!log.includes(KEY.slice(3)), "no part of the API key is in debug.log");
    for (let i = 1; i <= 3; i++) {
      const line = log.split("\n").find((l) => l.includes(`minoc·debug·llm: request ${i} `))!;
      const request = JSON.parse(line.slice(line.indexOf("{")));
      assert.equal(request.url, `${server.baseUrl}/chat/completions`);
      assert.equal(request.body.model, "m1");
      assert.deepEqual(
        request.body.messages,
        server.requests[i - 1].body.messages,
        `request ${i} in full`,
      );
      assert.match(request.headers.authorization, /^(Bearer )?\[REDACTED\]$/);
      // The exact bytes sent: what the client adds is there too.
      assert.deepEqual(request.body, server.requests[i - 1].body, `request ${i} as sent`);
      assert.deepEqual(request.body.stream_options, { include_usage: true });
      // The client's own User-Agent, also from the minified bundle.
      assert.match(request.headers["user-agent"] ?? "", /^OpenAI\/JS \d+\.\d+\.\d+$/);
      const status = log.split("\n").find((l) => l.includes(`minoc·debug·llm: status ${i} `))!;
      const response = JSON.parse(status.slice(status.indexOf("{")));
      assert.equal(response.status, 200);
      assert.match(response.headers["content-type"], /^text\/event-stream/);
    }
    const reply = log.split("\n").find((l) => l.includes("minoc·debug·llm: response 2 "))!;
    assert.equal(JSON.parse(reply.slice(reply.indexOf("{"))).text, SCRIPT[1].text);
    for (
      const text of [
        'parse result {"kind":"call","call":{"tool":"read_file","params":{"path":"notes.md"}}}',
        'verdict {"type":"verdict","gate":"mode","action":"pass","rule":"agent mode"}',
        '"gate":"approval","action":"pass","rule":"--yes"',
        "state idle → waiting for m1",
        "state waiting → streaming",
        "state streaming → parsing",
        "state gating → recording",
        "state gating → running",
        "timing model ",
        "timing first token ",
        "timing parse ",
        "timing gates ",
        "timing tool ",
        "timing record ",
        'summary {"session":',
      ]
    ) assert.ok(log.includes(text), `debug.log has "${text}"`);
    for (const phase of ["model", "parse", "gates", "tool", "record"]) {
      assert.match(r.stdout, new RegExp(`^  ⏱ ${phase} [\\d.]+ m?s`, "m"), `a ${phase} line`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("debug last sums up the last debug session; --json gives the same numbers", async () => {
  const dir = await project();
  const replies = [{ text: call("read_file", { path: "missing.md" }) }, { text: "It is missing." }];
  await using server = await startServer({ replies });
  try {
    const none = await runMinoc(["debug", "last"], { cwd: dir });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /No debug records in ".*debug\.log": run minoc with --debug first/);
    const run = await runMinoc(
      ["run", "read it", "--debug", "--base-url", server.baseUrl, "--model", "m1"],
      { cwd: dir },
    );
    assert.equal(run.code, 0, run.stderr);
    const text = await runMinoc(["debug", "last"], { cwd: dir });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Session \S+: 1 task, 2 turns, [\d.]+ m?s \(answered\)\n/);
    assert.match(text.stdout, /^model\s+2\s/m);
    assert.match(text.stdout, /^tool\s+1\s/m);
    assert.match(text.stdout, /Errors \(1\):\n {2}tool: /);
    const json = JSON.parse((await runMinoc(["debug", "last", "--json"], { cwd: dir })).stdout);
    assert.equal(json.tasks, 1);
    assert.equal(json.turns, 2);
    assert.equal(json.phases.model.count, 2);
    assert.equal(json.phases.gates.count, 1);
    assert.equal(json.errors[0].kind, "tool");
    assert.match(json.errors[0].message, /^read_file: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("without debug mode no debug.log is written; debug.json turns it on, terminal: false hides lines", async () => {
  const dir = await project();
  await using server = await startServer({ replies: [{ text: "Hi." }, { text: "Hi again." }] });
  try {
    const off = await runMinoc(["run", "hi", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
    });
    assert.equal(off.code, 0, off.stderr);
    assert.equal(await Deno.stat(join(logsDir(dir), "debug.log")).catch(() => null), null);
    assert.doesNotMatch(off.stdout, /⏱/);

    const config = join(dir, ".minoc", "config");
    await Deno.mkdir(config, { recursive: true });
    await Deno.writeTextFile(join(config, "debug.json"), '{"enabled": true, "terminal": false}');
    const on = await runMinoc(["run", "hi", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
    });
    assert.equal(on.code, 0, on.stderr);
    assert.match(await Deno.readTextFile(join(logsDir(dir), "debug.log")), /request 1 /);
    assert.doesNotMatch(on.stdout, /⏱/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run --step is refused with exit code 2: step mode needs a terminal", async () => {
  const dir = await project();
  try {
    const r = await runMinoc(["run", "hi", "--step", "--model", "m"], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /run --step is not possible: step mode needs a terminal/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run --debug: a server that rejects stream_options shows both HTTP requests as sent, with their status", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [{ text: "Hello.", rejectStreamOptions: true }],
  });
  try {
    const r = await runMinoc(
      ["run", "hi", "--debug", "--base-url", server.baseUrl, "--model", "m1"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const log = (await Deno.readTextFile(join(logsDir(dir), "debug.log"))).split("\n");
    const record = (name: string) => {
      const line = log.find((l) => l.includes(`minoc·debug·llm: ${name} {`));
      assert.ok(line, `debug.log has "${name}"`);
      return JSON.parse(line.slice(line.indexOf("{")));
    };
    assert.deepEqual(record("request 1").body.stream_options, { include_usage: true });
    assert.equal(record("status 1").status, 400);
    assert.equal(record("request 1.2").body.stream_options, undefined);
    assert.equal(record("status 1.2").status, 200);
    assert.equal(record("response 1").text, "Hello.");
    assert.ok(!r.stderr.includes("stream_options"), r.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
