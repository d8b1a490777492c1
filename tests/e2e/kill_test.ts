/**
 * End-to-end crash test: `minoc run` works through a long scripted session
 * (40 turns of reads and writes, streamed in slow chunks) and is killed
 * with SIGKILL at a random instant, again and again. After each kill the
 * session file loads with a prefix of the session's messages (at most the
 * message in flight is lost), and `run --continue` in that directory resumes
 * it: the model is sent the recorded conversation, the run finishes, and the
 * same file ends as valid JSON.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { SessionFile } from "../../interfaces/history.ts";
import { listSessions, loadSession } from "../../core/history/store.ts";
import { type ScriptedReply, startServer, toolCall } from "../support/server.ts";
import { entry, minocEnv, RUN_FLAGS, runMinoc } from "../support/cli.ts";

const KILLS = 10;
const TURNS = 40;

const call = toolCall;

/**
 * Turn i: reads of a 13 KB file and writes of new files, in four slow chunks
 * each. The whole conversation stays under the default context window, so no
 * compaction request takes a scripted reply.
 */
function script(): ScriptedReply[] {
  const replies: ScriptedReply[] = [];
  for (let i = 0; i < TURNS; i++) {
    const text = i % 2 === 0
      ? `Turn ${i}: reading.\n${call("read_file", { path: "big.txt" })}`
      : `Turn ${i}: writing.\n${
        call("write_to_file", {
          path: `out/f${i}.txt`,
          content: `\nfile ${i}\n${"w".repeat(i * 100)}\n`,
        })
      }`;
    const q = Math.ceil(text.length / 4);
    replies.push({
      chunks: [0, 1, 2, 3].map((k) => text.slice(k * q, (k + 1) * q)),
      chunkDelayMs: 15,
    });
  }
  replies.push({ text: call("attempt_completion", { result: "All turns done." }) });
  return replies;
}

async function project(): Promise<{ dir: string; home: string }> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_kill_e2e_" }));
  const line = "a fairly long line of the big file, with some text to read back\n";
  await Deno.writeTextFile(join(dir, "big.txt"), line.repeat(200));
  await Deno.mkdir(join(dir, "out"));
  return { dir, home: join(dir, ".home") };
}

/** Runs minoc on the script and SIGKILLs it after `delayMs` from its first request. */
async function runAndKill(dir: string, home: string, delayMs: number) {
  const replies = script();
  await using server = await startServer({ replies });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      ...RUN_FLAGS,
      entry(),
      "run",
      "work through the turns",
      "--base-url",
      server.baseUrl,
      "--model",
      "m",
      "--yes",
      "--max-turns",
      "60",
    ],
    cwd: dir,
    env: minocEnv({ cwd: dir, home }),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const until = Date.now() + 60_000;
  while (server.requests.length === 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, delayMs));
  let killed = true;
  try {
    child.kill("SIGKILL");
  } catch {
    killed = false; // it had already finished
  }
  const status = await child.status;
  return { replies, killed: killed && status.signal === "SIGKILL", served: server.requests.length };
}

/** The session's messages must be the script's, in order: a prefix of the full session. */
function assertPrefix(s: SessionFile, replies: ScriptedReply[], context: string): void {
  const ms = s.messages;
  assert.equal(ms[0]?.content ?? "work through the turns", "work through the turns", context);
  let reply = 0;
  for (let i = 1; i < ms.length; i++) {
    const want = ["assistant", "tool_call", "tool_response", "user"][(i - 1) % 4];
    assert.equal(ms[i].role, want, `${context}: role of message ${i}`);
    if (want === "assistant") {
      const r = replies[reply++];
      assert.equal(ms[i].content, r.text ?? r.chunks!.join(""), `${context}: reply ${reply}`);
    }
    if (want === "tool_call") {
      assert.equal(ms[i].call?.tool, reply % 2 === 1 ? "read_file" : "write_to_file", context);
    }
  }
}

async function resumeAndFinish(dir: string, home: string, before: SessionFile, path: string) {
  await using server = await startServer({ replies: [{ text: "Finished after the crash." }] });
  const r = await runMinoc(
    ["run", "--continue", "finish", "--base-url", server.baseUrl, "--model", "m", "--yes"],
    { cwd: dir, home },
  );
  assert.equal(r.code, 0, r.stderr);
  const sent = server.requests[0].body.messages.map((m: { role: string; content: string }) => ({
    role: m.role,
    content: m.content,
  }));
  const recorded = [
    { role: "system", content: before.systemPrompt },
    ...before.messages.filter((m) => m.role === "user" || m.role === "assistant")
      .map((m) => ({ role: m.role, content: m.content })),
  ];
  assert.deepEqual(sent.slice(0, recorded.length), recorded, "the recorded conversation is sent");
  assert.deepEqual(sent.at(-1), { role: "user", content: "finish" });
  const extra = sent.length - recorded.length;
  assert.ok(extra === 1 || extra === 2, `${extra} messages added`);
  if (extra === 2) assert.match(sent.at(-2).content, /^\[[^\]]+\] (Result|Error)/);
  const after: SessionFile = JSON.parse(await Deno.readTextFile(path));
  assert.equal(after.sessionId, before.sessionId);
  assert.deepEqual(after.messages.slice(0, before.messages.length), before.messages);
  assert.equal(after.messages.at(-1)?.content, "Finished after the crash.");
}

Deno.test({
  name:
    "run killed with SIGKILL at random points: the session loads as a prefix and --continue finishes it",
  sanitizeResources: false,
  async fn() {
    let kills = 0;
    for (let attempt = 0; kills < KILLS && attempt < KILLS * 2; attempt++) {
      const { dir, home } = await project();
      try {
        const delay = Math.floor(Math.random() * 4000);
        const run = await runAndKill(dir, home, delay);
        if (run.killed) kills++;
        const [summary] = await listSessions(join(home, ".minoc", "history", "sessions"));
        assert.ok(summary, `attempt ${attempt}: a session file exists`);
        const before = await loadSession(summary.path);
        const context = `attempt ${attempt} (${delay} ms, ${before.messages.length} messages)`;
        assertPrefix(before, run.replies, context);
        const replies = before.messages.filter((m) => m.role === "assistant").length;
        assert.ok(replies <= run.served, `${context}: no more replies than were served`);
        await resumeAndFinish(dir, home, before, summary.path);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    }
    assert.equal(kills, KILLS, `only ${kills} of the runs were still going when killed`);
  },
});
