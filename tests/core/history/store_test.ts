import assert from "node:assert/strict";
import { join } from "node:path";
import { createRecorder } from "../../../core/history/recorder.ts";
import { listSessions, loadSession, repairSession } from "../../../core/history/store.ts";

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_store_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Records a session started at `start` with the given messages; returns its path. */
async function record(
  dir: string,
  start: Date,
  projectPath: string,
  contents: string[],
): Promise<string> {
  let t = start.getTime();
  const rec = await createRecorder({
    sessionsDir: dir,
    model: `model-${projectPath}`,
    projectPath,
    mode: "agent",
    now: () => new Date(t++),
  });
  for (const [i, content] of contents.entries()) {
    await rec.append({ role: i === 0 ? "system" : i % 2 ? "user" : "assistant", content });
  }
  await rec.close();
  return rec.path!;
}

Deno.test("`loadSession()` reads a file with trailing whitespace", async () => {
  await withTemp(async (dir) => {
    const path = await record(dir, new Date(2026, 1, 3), "/p", ["s", "hello"]);
    await Deno.writeTextFile(path, " \n\t\n  \n", { append: true });
    const session = await loadSession(path);
    assert.deepEqual(session.messages.map((m) => m.content), ["s", "hello"]);
    assert.equal(session.metadata.repaired, undefined);
  });
});

Deno.test("`loadSession()` keeps every complete message of a file whose last write was cut", async () => {
  await withTemp(async (dir) => {
    const path = await record(dir, new Date(2026, 1, 3), "/p", ["s", "one", "two"]);
    const text = await Deno.readTextFile(path);
    // What a cut write leaves: the start of a new line over the old tail, old bytes after it.
    const tailAt = text.lastIndexOf("\n],");
    const cut = text.slice(0, tailAt) + ',\n{"role":"user","content":"thr' +
      text.slice(tailAt + 30);
    await Deno.writeTextFile(path, cut);
    assert.throws(() => JSON.parse(cut));
    const session = await loadSession(path);
    assert.deepEqual(session.messages.map((m) => m.content), ["s", "one", "two"]);
    assert.equal(session.metadata.repaired, true);
    assert.equal(await repairSession(path), true);
    const fixed = JSON.parse(await Deno.readTextFile(path));
    assert.deepEqual(fixed.messages.map((m: { content: string }) => m.content), [
      "s",
      "one",
      "two",
    ]);
    assert.equal(await repairSession(path), false);
  });
});

Deno.test("`loadSession()` names the file when it is not a session", async () => {
  await withTemp(async (dir) => {
    const path = join(dir, "session_x.json");
    await Deno.writeTextFile(path, "{ not json");
    await assert.rejects(loadSession(path), /Cannot read session ".*session_x\.json": /);
    await assert.rejects(loadSession(join(dir, "missing.json")), /Cannot read session "/);
  });
});

Deno.test("`listSessions()` lists newest first with summaries, and filters by project", async () => {
  await withTemp(async (dir) => {
    await record(dir, new Date(2026, 0, 5, 10), "/a", ["sys", "first a", "reply"]);
    await record(dir, new Date(2026, 0, 7, 9), "/b", ["sys", "only b"]);
    await record(dir, new Date(2026, 0, 7, 11), "/a", ["sys", "second a", "r", "more"]);
    const all = await listSessions(dir);
    assert.deepEqual(all.map((s) => s.firstUserMessage), ["second a", "only b", "first a"]);
    assert.deepEqual(all.map((s) => s.messageCount), [4, 2, 3]);
    assert.equal(all[0].model, "model-/a");
    assert.equal(all[0].timestamp, new Date(2026, 0, 7, 11).toISOString());
    assert.match(all[0].path, /2026-01-07[\\/]session_20260107-110000-[0-9a-f]{6}\.json$/);
    const onlyA = await listSessions(dir, { projectPath: "/a/" });
    assert.deepEqual(onlyA.map((s) => s.firstUserMessage), ["second a", "first a"]);
    assert.deepEqual(await listSessions(dir, { projectPath: "/c" }), []);
  });
});

Deno.test("`listSessions()` takes the count from the tail and the first user message from the top, without reading the rest", async () => {
  await withTemp(async (dir) => {
    const path = await record(dir, new Date(2026, 0, 5, 10), "/a", ["sys", "the task", "reply"]);
    const text = await Deno.readTextFile(path);
    assert.match(text, /"messageCount":3/);
    // A tail that says 99: only a listing that trusts the tail reports it.
    await Deno.writeTextFile(path, text.replace('"messageCount":3', '"messageCount":99'));
    const [quick] = await listSessions(dir);
    assert.equal(quick.messageCount, 99);
    assert.equal(quick.firstUserMessage, "the task");
    // A file from before the count was kept is counted line by line.
    await Deno.writeTextFile(path, text.replace('"messageCount":3,', ""));
    assert.equal((await listSessions(dir))[0].messageCount, 3);
  });
});

Deno.test("`listSessions()` reads hand-written JSON and skips files that are not sessions", async () => {
  await withTemp(async (dir) => {
    await Deno.mkdir(join(dir, "2025-12-31"));
    const pretty = {
      sessionId: "old",
      timestamp: "2025-12-31T10:00:00.000Z",
      model: "m",
      systemPrompt: "",
      projectPath: "/x",
      mode: "plan",
      messages: [{ role: "user", content: "pretty", timestamp: "2025-12-31T10:00:01.000Z" }],
      metadata: { totalTokens: 1, duration: 1 },
    };
    await Deno.writeTextFile(
      join(dir, "2025-12-31", "session_old.json"),
      JSON.stringify(pretty, null, 2),
    );
    await Deno.writeTextFile(join(dir, "2025-12-31", "session_bad.json"), "[1,2]");
    await Deno.writeTextFile(join(dir, "2025-12-31", "notes.txt"), "ignored");
    await Deno.mkdir(join(dir, "not-a-day"));
    const list = await listSessions(dir);
    assert.equal(list.length, 1);
    assert.deepEqual(
      {
        id: list[0].id,
        first: list[0].firstUserMessage,
        n: list[0].messageCount,
        mode: list[0].mode,
      },
      { id: "old", first: "pretty", n: 1, mode: "plan" },
    );
    assert.deepEqual(await listSessions(join(dir, "missing")), []);
  });
});
