/**
 * End-to-end: the security gate loads while the model works, but security.json
 * still counts from the first call, and a broken one stops `minoc run` before
 * anything is sent to the model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type RecordedRequest, startServer, toolCall } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";

const call = toolCall;

const DONE = { text: call("attempt_completion", { result: "Done." }) };

/** A project whose `.minoc` home holds `security` as its security.json (none when null). */
async function project(security: string | null): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_e2e_security_" });
  if (security !== null) {
    await Deno.mkdir(join(dir, ".home", ".minoc", "config"), { recursive: true });
    await Deno.writeTextFile(join(dir, ".home", ".minoc", "config", "security.json"), security);
  }
  return dir;
}

function chat(server: { requests: RecordedRequest[] }): RecordedRequest[] {
  return server.requests.filter((q) => q.path.endsWith("/chat/completions"));
}

Deno.test("run: a broken security.json exits 2 naming the file, before any request", async () => {
  const dir = await project('{"block": [{"id": "x"}]}');
  await using server = await startServer({ replies: [DONE] });
  try {
    const r = await runMinoc(["run", "hi", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /security\.json/);
    assert.equal(chat(server).length, 0, "nothing was sent to the model");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * What the model is told after `minoc run --yes` runs `command` as its first call, with `security`
 * as security.json (none when null).
 */
async function firstCommandResult(security: string | null, command: string): Promise<string> {
  const dir = await project(security);
  const replies = [{ text: call("execute_command", { command }) }, DONE];
  await using server = await startServer({ replies });
  try {
    const r = await runMinoc(
      ["run", "go", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const second = chat(server)[1].body as { messages: { content: string }[] };
    return second.messages.at(-1)!.content;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("run: the user's block rule in security.json refuses the first command, even with --yes", async () => {
  const rule = { id: "no-cows", pattern: "cowsay *", reason: "no cows in this house" };
  assert.match(
    await firstCommandResult(JSON.stringify({ block: [rule] }), "cowsay moo"),
    /Blocked by the security gate \(rule no-cows\): no cows in this house/,
  );
});

Deno.test("run: without security.json the built-in rules refuse the first dangerous command", async () => {
  assert.match(
    await firstCommandResult(null, "rm -rf /"),
    /Blocked by the security gate \(rule delete-/,
  );
});
