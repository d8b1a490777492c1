/**
 * End-to-end: minoc's API key never reaches the commands it runs, and what
 * does leak into text is redacted in the session file and debug.log.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";
import { landlockAbi } from "../../core/sandbox/landlock.ts";

const call = toolCall;

const KEY = "test-key-0123456789abcdef";
const OTHER = "other-secret-99887766";

async function readAll(dir: string): Promise<string> {
  let text = "";
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) text += await readAll(p);
    else if (e.isFile) text += await Deno.readTextFile(p).catch(() => "");
  }
  return text;
}

Deno.test("execute_command does not see the API key when its variable is named by apiKeyEnv or OPENAI_API_KEY", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_secrets_" });
  const home = join(dir, ".home");
  await Deno.mkdir(join(home, ".minoc", "config"), { recursive: true });
  await Deno.writeTextFile(
    join(home, ".minoc", "config", "settings.json"),
    JSON.stringify({ apiKeyEnv: "MY_LLM_KEY" }),
  );
  const command = "printenv MY_LLM_KEY; printenv OPENAI_API_KEY; env | grep -c " +
    KEY.slice(0, 12) +
    "; echo listed";
  await using server = await startServer({
    apiKey: KEY,
    replies: [
      { text: call("execute_command", { command }) },
      { text: call("get_env", { name: "MY_LLM_KEY" }) },
      { text: call("attempt_completion", { result: "done" }) },
    ],
  });
  try {
    const r = await runMinoc(
      ["run", "show env", "--base-url", server.baseUrl, "--model", "m", "--yes", "--debug"],
      { cwd: dir, env: { MY_LLM_KEY: KEY, OPENAI_API_KEY: OTHER } },
    );
    assert.equal(r.code, 0, r.stderr);
    const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
    assert.equal(reqs.length, 3);
    const seen = JSON.stringify(reqs.map((q) => q.body.messages));
    assert.match(seen, /listed/);
    assert.ok(!seen.includes(KEY), "the key never reaches the model");
    assert.ok(!seen.includes(OTHER), "OPENAI_API_KEY never reaches the model");
    assert.match(seen, /\\n0\\nlisted/, "no variable holds the key's value");
    const stored = await readAll(join(home, ".minoc"));
    assert.ok(!stored.includes(KEY), "nothing under .minoc holds the key");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the session file redacts keys after escaped newlines and in URLs when a command prints them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_secrets_" });
  const command = "printf 'A=1\\nGITHUB_TOKEN=ghp_abcdefghijklmnop\\n" +
    "https://bob:hunter2hunter2@example.com/x?key=AIzaSyXXXXXXXX&v=1\\n'";
  await using server = await startServer({
    replies: [
      { text: call("execute_command", { command }) },
      { text: call("attempt_completion", { result: "done" }) },
    ],
  });
  try {
    const r = await runMinoc(
      ["run", "print", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    const text = JSON.stringify(session);
    assert.match(text, /A=1/);
    for (const secret of ["ghp_abcdefghijklmnop", "hunter2hunter2", "AIzaSyXXXXXXXX"]) {
      assert.ok(!text.includes(secret), `${secret} is redacted`);
    }
    assert.match(text, /GITHUB_TOKEN=\[REDACTED\]/);
    assert.match(text, /bob:\[REDACTED\]@example\.com/);
    assert.match(text, /\?key=\[REDACTED\]&v=1/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a command that reads minoc's own environment gets no key, plain or encoded; naming it asks, so --yes refuses", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_secrets_" });
  // A script: no rule sees which file it reads, only its output shows the key.
  const script =
    'f=$(echo xenvironx | cut -c2-8)\ntr "\\0" "\\n" < /proc/$PPID/$f\nbase64 -w0 /proc/$PPID/$f\n';
  await using server = await startServer({
    apiKey: KEY,
    replies: [
      { text: call("execute_command", { command: "cat /proc/$PPID/environ" }) },
      { text: call("write_to_file", { path: "peek.sh", content: script }) },
      { text: call("execute_command", { command: "sh peek.sh" }) },
      { text: call("attempt_completion", { result: "done" }) },
    ],
  });
  try {
    // No sandbox: Landlock keeps a confined command from minoc's environment (see the last test).
    const r = await runMinoc(
      [
        ...["run", "look", "--base-url", server.baseUrl, "--model", "m", "--yes"],
        ...["--sandbox", "off"],
      ],
      { cwd: dir, env: { OPENAI_API_KEY: KEY, SOME_OTHER: OTHER } },
    );
    assert.equal(r.code, 0, r.stderr);
    const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
    assert.equal(reqs.length, 4);
    const [, named, , peeked] = reqs.map((q) => JSON.stringify(q.body.messages.at(-1)));
    assert.match(named, /secret/i, "naming /proc/$PPID/environ is refused under --yes");
    // The unnamed read ran: minoc's environment came back, its key hidden in every form.
    assert.ok(peeked.includes(OTHER), `the command did read minoc's environment: ${peeked}`);
    assert.match(peeked, /OPENAI_API_KEY=\[REDACTED\]/);
    const seen = JSON.stringify(reqs.map((q) => q.body.messages));
    assert.ok(!seen.includes(KEY), "the key never reaches the model");
    const b64 = btoa(`OPENAI_API_KEY=${KEY}`);
    for (const piece of [b64.slice(4, 24), btoa(KEY).slice(0, 20)]) {
      assert.ok(!seen.includes(piece), `no base64 of the key: ${piece}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "a sandboxed script cannot find the key in any process's environment, also when minoc runs as root",
  ignore: Deno.build.os !== "linux" || landlockAbi() === 0,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "minoc_secrets_" });
    // Written by the model, then run: the blocklist cannot see what the script reads.
    const script = "n=0; for f in /proc/[0-9]*/environ; do " +
      `if tr '\\0' '\\n' < "$f" 2>/dev/null | grep -q ${KEY.slice(0, 12)}; then n=$((n+1)); fi; ` +
      'done; echo "found=$n" > found.txt';
    await using server = await startServer({
      apiKey: KEY,
      replies: [
        { text: call("write_to_file", { path: "probe.sh", content: script }) },
        { text: call("execute_command", { command: "sh probe.sh" }) },
        { text: call("attempt_completion", { result: "done" }) },
      ],
    });
    try {
      const r = await runMinoc(
        ["run", "look", "--base-url", server.baseUrl, "--model", "m", "--yes"],
        { cwd: dir, env: { OPENAI_API_KEY: KEY } },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await Deno.readTextFile(join(dir, "found.txt")), "found=0\n");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
