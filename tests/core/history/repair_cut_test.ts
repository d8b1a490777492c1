import assert from "node:assert/strict";
import { join } from "node:path";
import { createRecorder } from "../../../core/history/recorder.ts";
import { CUT_AGE_MS, loadSession, repairCutSessions } from "../../../core/history/store.ts";

/** Records two messages, then cuts the file the way a torn multi-page write does. */
async function cutSession(sessionsDir: string, project: string): Promise<string> {
  const rec = await createRecorder({
    sessionsDir,
    model: "m",
    projectPath: project,
    mode: "agent",
  });
  await rec.append({ role: "user", content: "first" });
  await rec.append({ role: "assistant", content: "second" });
  await rec.close();
  const path = rec.path!;
  const text = await Deno.readTextFile(path);
  const cutAt = text.lastIndexOf("],");
  // A new message's first page landed; the rest of the old tail is still there.
  const torn = text.slice(0, cutAt) + '{"role":"tool_response","content":"half of a long outp' +
    text.slice(cutAt + 40);
  await Deno.writeTextFile(path, torn);
  assert.throws(() => JSON.parse(torn));
  return path;
}

Deno.test("`repairCutSessions()` repairs an old cut file of the project, keeping every whole message", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_cut_" });
  try {
    const path = await cutSession(dir, "/p/one");
    const old = new Date(Date.now() - CUT_AGE_MS - 1000);
    await Deno.utime(path, old, old);
    assert.deepEqual(await repairCutSessions(dir, "/p/one"), [path]);
    const raw = JSON.parse(await Deno.readTextFile(path));
    assert.deepEqual(raw.messages.map((m: { content: string }) => m.content), ["first", "second"]);
    assert.equal((await loadSession(path)).messages.length, 2);
    assert.deepEqual(await repairCutSessions(dir, "/p/one"), [], "a valid file is left alone");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`repairCutSessions()` leaves a just-written file and other projects' files alone", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_cut_" });
  try {
    const fresh = await cutSession(dir, "/p/one");
    const other = await cutSession(join(dir), "/p/two");
    const old = new Date(Date.now() - CUT_AGE_MS - 1000);
    await Deno.utime(other, old, old);
    assert.deepEqual(await repairCutSessions(dir, "/p/one"), []);
    assert.throws(() => JSON.parse(Deno.readTextFileSync(fresh)), "a live writer may own it");
    assert.throws(() => JSON.parse(Deno.readTextFileSync(other)), "not this project");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
