import assert from "node:assert/strict";
import { createRecorder, resumeRecorder } from "../../../core/history/recorder.ts";
import { loadSession } from "../../../core/history/store.ts";
import type { SessionFile } from "../../../interfaces/history.ts";

/** A clock that moves one second per call. */
function steppingClock(start: Date): () => Date {
  let t = start.getTime();
  return () => new Date((t += 1000) - 1000);
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_resume_rec_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const base = { model: "m", projectPath: "/proj", mode: "agent" as const };

Deno.test("`resumeRecorder()` appends to the same file after the earlier messages", async () => {
  await withTemp(async (dir) => {
    const first = await createRecorder({ ...base, sessionsDir: dir, systemPrompt: "sys" });
    await first.append({ role: "user", content: "one" });
    await first.append({ role: "assistant", content: "two" });
    await first.update({ turns: 1, totalTokens: 40, filesChanged: ["a.txt"] });
    await first.close();
    const path = first.path!;

    const again = await resumeRecorder(path);
    assert.equal(again.path, path);
    assert.equal(again.sessionId, first.sessionId);
    await again.append({ role: "user", content: "three" });
    await again.update({ turns: again.snapshot().metadata.turns + 1 });
    await again.close();

    const file: SessionFile = JSON.parse(await Deno.readTextFile(path));
    assert.deepEqual(file.messages.map((m) => m.content), ["one", "two", "three"]);
    assert.equal(file.systemPrompt, "sys");
    assert.equal(file.metadata.turns, 2);
    assert.equal(file.metadata.totalTokens, 40);
    assert.deepEqual(file.metadata.filesChanged, ["a.txt"]);
  });
});

Deno.test("`resumeRecorder()` repairs a file cut mid-write and keeps its complete messages", async () => {
  await withTemp(async (dir) => {
    const rec = await createRecorder({ ...base, sessionsDir: dir });
    for (let i = 0; i < 5; i++) {
      await rec.append({ role: "user", content: `m${i} ${"x".repeat(50)}` });
    }
    await rec.close();
    const path = rec.path!;
    const text = await Deno.readTextFile(path);
    // Cut inside the last message line, as a killed write can leave it.
    const cut = text.lastIndexOf('"m4') + 8;
    await Deno.writeTextFile(path, text.slice(0, cut));
    assert.throws(() => JSON.parse(text.slice(0, cut)));

    const again = await resumeRecorder(path);
    await again.append({ role: "user", content: "after" });
    await again.close();
    const file: SessionFile = JSON.parse(await Deno.readTextFile(path));
    assert.deepEqual(
      file.messages.map((m) => m.content.split(" ")[0]),
      ["m0", "m1", "m2", "m3", "after"],
    );
    assert.equal((await loadSession(path)).messages.length, 5);
  });
});

Deno.test("`resumeRecorder()` counts duration on from the recorded one, not from the start", async () => {
  await withTemp(async (dir) => {
    const start = new Date(2026, 10, 22, 8, 0, 0);
    const rec = await createRecorder({ ...base, sessionsDir: dir, now: steppingClock(start) });
    await rec.append({ role: "user", content: "a" });
    await rec.append({ role: "user", content: "b" });
    const before = rec.snapshot().metadata.duration;
    await rec.close();
    assert.ok(before > 0);
    // A day later.
    const later = new Date(start.getTime() + 86_400_000);
    const again = await resumeRecorder(rec.path!, { now: steppingClock(later) });
    await again.append({ role: "user", content: "c" });
    await again.close();
    const after = again.snapshot().metadata.duration;
    assert.ok(after > before, `${after} > ${before}`);
    assert.ok(after < before + 10_000, `the day between runs is not counted: ${after}`);
  });
});

Deno.test("`resumeRecorder()` fails with the path when the file is not a session", async () => {
  await withTemp(async (dir) => {
    const path = `${dir}/session_x.json`;
    await Deno.writeTextFile(path, "not json at all");
    await assert.rejects(() => resumeRecorder(path), /Cannot read session ".*session_x\.json"/);
  });
});
