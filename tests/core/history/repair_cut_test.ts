import assert from "node:assert/strict";
import { join } from "node:path";
import { createRecorder } from "../../../core/history/recorder.ts";
import { CUT_AGE_MS, loadSession } from "../../../core/history/store.ts";
import { repairCutSessions } from "../../../core/history/repair_cut.ts";
import { checkedUpTo, marksFile } from "../../../core/history/repair_marks.ts";

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

/** Runs `fn` with a sessions folder in a new temp folder (the check's record goes beside it). */
function withSessions(fn: (dir: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const root = await Deno.makeTempDir({ prefix: "minoc_cut_" });
    try {
      await fn(join(root, "sessions"));
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  };
}

Deno.test(
  "`repairCutSessions()` repairs an old cut file of the project, keeping every whole message",
  withSessions(async (dir) => {
    const path = await cutSession(dir, "/p/one");
    const old = new Date(Date.now() - CUT_AGE_MS - 1000);
    await Deno.utime(path, old, old);
    assert.deepEqual(await repairCutSessions(dir, "/p/one"), [path]);
    const raw = JSON.parse(await Deno.readTextFile(path));
    assert.deepEqual(raw.messages.map((m: { content: string }) => m.content), ["first", "second"]);
    assert.equal((await loadSession(path)).messages.length, 2);
    assert.deepEqual(await repairCutSessions(dir, "/p/one"), [], "a valid file is left alone");
  }),
);

Deno.test(
  "`repairCutSessions()` leaves a just-written file and other projects' files alone",
  withSessions(async (dir) => {
    const fresh = await cutSession(dir, "/p/one");
    const other = await cutSession(join(dir), "/p/two");
    const old = new Date(Date.now() - CUT_AGE_MS - 1000);
    await Deno.utime(other, old, old);
    assert.deepEqual(await repairCutSessions(dir, "/p/one"), []);
    assert.throws(() => JSON.parse(Deno.readTextFileSync(fresh)), "a live writer may own it");
    assert.throws(() => JSON.parse(Deno.readTextFileSync(other)), "not this project");
  }),
);

Deno.test("`repairCutSessions()` looks again only at files written after its last check's horizon", async () => {
  const root = await Deno.makeTempDir({ prefix: "minoc_cut_" });
  const dir = join(root, "sessions");
  const at = (ms: number) => new Date(ms);
  try {
    const now = Date.now();
    assert.deepEqual(await repairCutSessions(dir, "/p/one", now), [], "nothing yet");
    // A cut file written before the horizon of that check: already looked at, so not again.
    const before = await cutSession(dir, "/p/one");
    await Deno.utime(before, at(now - CUT_AGE_MS - 5000), at(now - CUT_AGE_MS - 5000));
    const later = now + 60_000;
    assert.deepEqual(await repairCutSessions(dir, "/p/one", later), []);
    assert.throws(() => JSON.parse(Deno.readTextFileSync(before)), "left as it was");
    // Written after that check's horizon (and old enough by the next): looked at and repaired.
    const written = later - CUT_AGE_MS + 1000;
    await Deno.utime(before, at(written), at(written));
    assert.deepEqual(await repairCutSessions(dir, "/p/one", later + 60_000), [before]);
    // Each project has its own horizon: another project's old cut file is still found.
    const other = await cutSession(dir, "/p/two");
    await Deno.utime(other, at(now - CUT_AGE_MS - 5000), at(now - CUT_AGE_MS - 5000));
    assert.deepEqual(await repairCutSessions(dir, "/p/two", later), [other]);
    const marks = JSON.parse(await Deno.readTextFile(marksFile(dir)));
    assert.deepEqual(marks, {
      "/p/one": later + 60_000 - CUT_AGE_MS,
      "/p/two": later - CUT_AGE_MS,
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test(
  "`repairCutSessions()` checks everything again when its record is damaged",
  withSessions(async (dir) => {
    const now = Date.now();
    const path = await cutSession(dir, "/p/one");
    const old = new Date(now - CUT_AGE_MS - 5000);
    await Deno.utime(path, old, old);
    for (const text of ["{", "[1]", '{"/p/one":"soon"}', "null"]) {
      await Deno.writeTextFile(marksFile(dir), text);
      assert.equal(checkedUpTo(dir, "/p/one"), -Infinity, text);
    }
    assert.deepEqual(await repairCutSessions(dir, "/p/one", now), [path]);
    assert.equal(checkedUpTo(dir, "/p/one"), now - CUT_AGE_MS);
  }),
);

Deno.test(
  "`repairCutSessions()` stops when its pace says so, and the next check goes on from there",
  withSessions(async (dir) => {
    const now = Date.now();
    const paths: string[] = [];
    for (let k = 0; k < 3; k++) {
      const path = await cutSession(dir, "/p/one");
      const t = new Date(now - CUT_AGE_MS - 30_000 + k * 1000); // oldest first: 0, 1, 2
      await Deno.utime(path, t, t);
      paths.push(path);
    }
    // The listing takes one piece, each file one: allow the listing and the oldest file.
    let pieces = 2;
    const pace = () => Promise.resolve(pieces-- > 0);
    assert.deepEqual(await repairCutSessions(dir, "/p/one", now, pace), [paths[0]]);
    assert.equal(checkedUpTo(dir, "/p/one"), now - CUT_AGE_MS - 29_000 - 1, "up to the next one");
    assert.throws(() => JSON.parse(Deno.readTextFileSync(paths[1])), "not reached");
    // Stopped before the first piece: nothing done, nothing recorded.
    assert.deepEqual(await repairCutSessions(dir, "/p/one", now, () => Promise.resolve(false)), []);
    assert.equal(checkedUpTo(dir, "/p/one"), now - CUT_AGE_MS - 29_000 - 1);
    assert.deepEqual(await repairCutSessions(dir, "/p/one", now), [paths[1], paths[2]]);
    assert.equal(checkedUpTo(dir, "/p/one"), now - CUT_AGE_MS);
  }),
);
