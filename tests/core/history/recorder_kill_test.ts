import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadSession, repairSession } from "../../../core/history/store.ts";
import { messageFor } from "../../fixtures/history/record_loop.ts";

const SCRIPT = fileURLToPath(new URL("../../fixtures/history/record_loop.ts", import.meta.url));
const KILLS = 15;

interface KillRun {
  path: string;
  /** Index of the last message whose append had resolved before the kill. */
  lastDone: number;
}

/** Starts the recording loop, kills it with SIGKILL after `delayMs`, returns what it reported. */
async function recordAndKill(dir: string, seed: number, delayMs: number): Promise<KillRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", SCRIPT, dir, String(seed)],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) {
      throw new Error(`Recorder loop ended early: ${await new Response(child.stderr).text()}`);
    }
    text += value;
  }
  await new Promise((r) => setTimeout(r, delayMs));
  child.kill("SIGKILL");
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  await child.status;
  await child.stderr.cancel();
  const lines = text.trim().split("\n");
  const path = lines[0].replace(/^path /, "");
  const oks = lines.filter((l) => l.startsWith("ok "));
  const lastDone = oks.length === 0 ? -1 : Number(oks.at(-1)!.slice(3));
  return { path, lastDone };
}

Deno.test("`createRecorder()` files survive SIGKILL at random points with at most one message lost", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_kill_" });
  let strict = 0;
  let torn = 0;
  try {
    for (let k = 0; k < KILLS; k++) {
      const seed = 1 + Math.floor(Math.random() * 1e6);
      const delay = 40 + Math.floor(Math.random() * 600);
      const run = await recordAndKill(dir, seed, delay);
      const text = await Deno.readTextFile(run.path);
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      if (valid) strict++;
      else torn++;
      const session = await loadSession(run.path);
      const got = session.messages.length;
      const context =
        `kill ${k} (seed ${seed}, ${delay} ms, ${got} messages, last done ${run.lastDone})`;
      assert.ok(got >= run.lastDone + 1, `${context}: a completed message was lost`);
      assert.ok(got <= run.lastDone + 2, `${context}: more messages than were sent`);
      for (let i = 0; i < got; i++) {
        const want = messageFor(seed, i);
        assert.equal(session.messages[i].content, want.content, `${context}: message ${i}`);
        assert.equal(session.messages[i].role, want.role, `${context}: role of ${i}`);
      }
      assert.equal(await repairSession(run.path), !valid);
      assert.equal(JSON.parse(await Deno.readTextFile(run.path)).messages.length, got);
      await Deno.remove(run.path);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  console.log(`${KILLS} kills: ${strict} left strict JSON, ${torn} cut a write short (recovered)`);
});
