/**
 * End-to-end: a session file cut by a crash is repaired when its project next
 * opens a session, while the model works on the first request (not before
 * it, nor in the agent's own turn).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRecorder } from "../../core/history/recorder.ts";
import { CUT_AGE_MS } from "../../core/history/store.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";
import { startServer } from "../support/server.ts";

Deno.test("run: repairs the project's session that a crash cut, and says so", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_repair_" }));
  // The model takes a while, as a real one does: the check runs in that time.
  await using server = await startServer({ replies: [{ text: "Nothing to do.", delayMs: 300 }] });
  try {
    const home = join(dir, ".home", ".minoc");
    const rec = await createRecorder({
      sessionsDir: join(home, "history", "sessions"),
      model: "m",
      projectPath: dir,
      mode: "agent",
    });
    await rec.append({ role: "user", content: "first" });
    await rec.append({ role: "assistant", content: "second" });
    await rec.close();
    const text = await Deno.readTextFile(rec.path!);
    const cutAt = text.lastIndexOf("],");
    await Deno.writeTextFile(rec.path!, text.slice(0, cutAt) + '{"role":"tool_resp');
    const old = new Date(Date.now() - CUT_AGE_MS - 1000);
    await Deno.utime(rec.path!, old, old);

    const r = await runMinoc(["run", "hi", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr + r.stdout, /Repaired session ".*": a crash had cut its last message/);
    const repaired = JSON.parse(await Deno.readTextFile(rec.path!));
    assert.deepEqual(repaired.messages.map((m: { content: string }) => m.content), [
      "first",
      "second",
    ]);
    assert.equal((await sessionFiles(home)).length, 2, "the cut session and the new one");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
