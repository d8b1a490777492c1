import assert from "node:assert/strict";
import { join } from "node:path";
import { createRecorder, nullRecorder } from "../../../core/history/recorder.ts";
import type { SessionFile } from "../../../interfaces/history.ts";

/** A clock that moves one second per call, from a fixed local time. */
function steppingClock(start = new Date(2026, 10, 22, 7, 53, 0)): () => Date {
  let t = start.getTime();
  return () => new Date((t += 1000) - 1000);
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_rec_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function readJson(path: string): Promise<SessionFile> {
  return JSON.parse(await Deno.readTextFile(path));
}

const base = { model: "test-model", projectPath: "/proj", mode: "agent" as const };

Deno.test("`createRecorder()` writes the session file at once under the day folder", async () => {
  await withTemp(async (dir) => {
    const rec = await createRecorder({ ...base, sessionsDir: dir, now: steppingClock() });
    try {
      assert.match(rec.sessionId, /^20261122-075300-[0-9a-f]{6}$/);
      assert.equal(rec.path, join(dir, "2026-11-22", `session_${rec.sessionId}.json`));
      const file = await readJson(rec.path!);
      assert.equal(file.sessionId, rec.sessionId);
      assert.equal(file.model, "test-model");
      assert.equal(file.projectPath, "/proj");
      assert.equal(file.mode, "agent");
      assert.equal(file.systemPrompt, "");
      assert.equal(file.timestamp, new Date(2026, 10, 22, 7, 53, 0).toISOString());
      assert.deepEqual(file.messages, []);
      assert.equal(file.metadata.totalTokens, 0);
      assert.deepEqual(file.metadata.filesChanged, []);
    } finally {
      await rec.close();
    }
  });
});

Deno.test("`append()` leaves valid JSON with every message after each of many appends", async () => {
  await withTemp(async (dir) => {
    const rec = await createRecorder({ ...base, sessionsDir: dir, now: steppingClock() });
    const expected: string[] = [];
    try {
      for (let i = 0; i < 150; i++) {
        const content = i % 25 === 7
          ? `big ${i} ` + 'x"y\\z\n✓🚀'.repeat(20_000)
          : `m${i} "quoted" \n new line \u2028 tab\t ${"é".repeat(i)}`;
        expected.push(content);
        await rec.append({ role: i % 2 ? "assistant" : "user", content });
        if (i % 10 === 0) await rec.update({ turns: i });
        const file = await readJson(rec.path!);
        assert.equal(file.messages.length, i + 1);
        assert.equal(file.messages[i].content, content);
        assert.equal(file.messages[0].content, expected[0]);
      }
      const file = await readJson(rec.path!);
      assert.deepEqual(file.messages.map((m) => m.content), expected);
      assert.equal(file.metadata.turns, 140);
      assert.deepEqual(file, rec.snapshot());
    } finally {
      await rec.close();
    }
  });
});

Deno.test("`append()` records the clock's timestamp and the message's details", async () => {
  await withTemp(async (dir) => {
    const rec = await createRecorder({ ...base, sessionsDir: dir, now: steppingClock() });
    try {
      await rec.append({
        role: "tool_call",
        content: "<tool_call>…</tool_call>",
        call: { tool: "read_file", params: { path: "a.txt" } },
        verdicts: [{ gate: "mode", action: "pass" }, { gate: "permission", action: "ask" }],
        allowedBy: "user: allow once",
      });
      const [m] = (await readJson(rec.path!)).messages;
      assert.equal(m.timestamp, new Date(2026, 10, 22, 7, 53, 1).toISOString());
      assert.deepEqual(m.call, { tool: "read_file", params: { path: "a.txt" } });
      assert.equal(m.verdicts?.[1].action, "ask");
      assert.equal(m.allowedBy, "user: allow once");
    } finally {
      await rec.close();
    }
  });
});

Deno.test("`update()` merges metadata, keeps duration current and survives a shorter tail", async () => {
  await withTemp(async (dir) => {
    const rec = await createRecorder({ ...base, sessionsDir: dir, now: steppingClock() });
    try {
      await rec.update({ totalTokens: 10, filesChanged: ["a/very/long/path/".repeat(20)] });
      await rec.update({ promptTokens: 7, filesChanged: [] });
      await rec.append({ role: "user", content: "hi" });
      const text = await Deno.readTextFile(rec.path!);
      const file: SessionFile = JSON.parse(text);
      assert.equal(file.metadata.totalTokens, 10);
      assert.equal(file.metadata.promptTokens, 7);
      assert.deepEqual(file.metadata.filesChanged, []);
      assert.equal(file.metadata.duration, 3000);
      assert.match(text, /\} +\n$/, "the shorter tail is padded with spaces");
    } finally {
      await rec.close();
    }
  });
});

Deno.test("`append()` with totals merges them in the message's own write", async () => {
  await withTemp(async (dir) => {
    const rec = await createRecorder({ ...base, sessionsDir: dir, now: steppingClock() });
    try {
      await rec.append({ role: "assistant", content: "done" }, { turns: 1, totalTokens: 12 });
      const file = await readJson(rec.path!);
      assert.equal(file.messages.at(-1)?.content, "done");
      assert.equal(file.metadata.turns, 1);
      assert.equal(file.metadata.totalTokens, 12);
      assert.equal(file.metadata.messageCount, 1);
      assert.equal(rec.snapshot().metadata.turns, 1);
    } finally {
      await rec.close();
    }
  });
});

Deno.test("`append()` redacts a quoted key inside a message's text (checked before JSON escapes the quotes)", async () => {
  await withTemp(async (dir) => {
    const rec = await createRecorder({ ...base, sessionsDir: dir, now: steppingClock() });
    try {
      const content = 'config = {"api_key": "abc123secretvalue", "model": "m"}';
      await rec.append({ role: "tool_response", content, tool: "read_file", ok: true });
      await rec.append(
        {
          role: "assistant",
          content: "plain words",
          usage: { promptTokens: 5, completionTokens: 1, totalTokens: 6 },
        },
      );
      const text = await Deno.readTextFile(rec.path!);
      assert.doesNotMatch(text, /abc123secretvalue/);
      const file: SessionFile = JSON.parse(text);
      assert.equal(file.messages[0].content, 'config = {"api_key": "[REDACTED]", "model": "m"}');
      assert.deepEqual(file.messages[1].usage, {
        promptTokens: 5,
        completionTokens: 1,
        totalTokens: 6,
      });
    } finally {
      await rec.close();
    }
  });
});

Deno.test("`setSystemPrompt()` rewrites the header and later appends still land", async () => {
  await withTemp(async (dir) => {
    const rec = await createRecorder({ ...base, sessionsDir: dir, systemPrompt: "old" });
    try {
      await rec.append({ role: "user", content: "first" });
      await rec.setSystemPrompt("You are minoc.\nTools:\n<read_file>…</read_file>");
      await rec.append({ role: "assistant", content: "second" });
      const file = await readJson(rec.path!);
      assert.equal(file.systemPrompt, "You are minoc.\nTools:\n<read_file>…</read_file>");
      assert.deepEqual(file.messages.map((m) => m.content), ["first", "second"]);
      const leftovers = [...Deno.readDirSync(join(rec.path!, ".."))].map((e) => e.name);
      // The lock sidecar stays while the recorder is open (session_lock.ts).
      assert.deepEqual(leftovers.sort(), [
        `session_${rec.sessionId}.json`,
        `session_${rec.sessionId}.json.lock`,
      ]);
    } finally {
      await rec.close();
    }
  });
});

Deno.test("`append()` keeps call order when calls are not awaited, and writes in place", async () => {
  await withTemp(async (dir) => {
    const rec = await createRecorder({ ...base, sessionsDir: dir });
    const inode = (await Deno.stat(rec.path!)).ino;
    const pending = [];
    for (let i = 0; i < 50; i++) pending.push(rec.append({ role: "user", content: `n${i}` }));
    pending.push(rec.update({ turns: 50 }));
    await Promise.all(pending);
    await rec.close();
    const file = await readJson(rec.path!);
    assert.deepEqual(file.messages.map((m) => m.content), [...Array(50)].map((_, i) => `n${i}`));
    assert.equal(file.metadata.turns, 50);
    assert.equal((await Deno.stat(rec.path!)).ino, inode, "appends never replace the file");
  });
});

Deno.test("`close()` makes later appends fail with the file's path", async () => {
  await withTemp(async (dir) => {
    const rec = await createRecorder({ ...base, sessionsDir: dir });
    await rec.close();
    await rec.close();
    await assert.rejects(rec.append({ role: "user", content: "late" }), /already closed/);
  });
});

Deno.test("`createRecorder()` gives every session its own sortable id", async () => {
  await withTemp(async (dir) => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const rec = await createRecorder({ ...base, sessionsDir: dir });
      ids.add(rec.sessionId);
      await rec.close();
    }
    assert.equal(ids.size, 20);
    const early = await createRecorder({
      ...base,
      sessionsDir: dir,
      now: () => new Date(2026, 0, 2, 3, 4, 5),
    });
    const late = await createRecorder({
      ...base,
      sessionsDir: dir,
      now: () => new Date(2026, 0, 2, 3, 4, 6),
    });
    assert.ok(early.sessionId < late.sessionId);
    await early.close();
    await late.close();
  });
});

Deno.test("`nullRecorder()` keeps the session in memory and writes nothing", async () => {
  await withTemp(async (dir) => {
    const rec = nullRecorder({ ...base, sessionsDir: dir });
    assert.equal(rec.path, null);
    await rec.setSystemPrompt("sys");
    await rec.append({ role: "user", content: "hello" });
    await rec.update({ totalTokens: 3 });
    await rec.close();
    const snap = rec.snapshot();
    assert.equal(snap.systemPrompt, "sys");
    assert.deepEqual(snap.messages.map((m) => m.content), ["hello"]);
    assert.equal(snap.metadata.totalTokens, 3);
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  });
});

Deno.test("`snapshot()` gives the messages as they were when it was taken, even when read later", async () => {
  await withTemp(async (dir) => {
    const rec = await createRecorder({ ...base, sessionsDir: dir });
    await rec.append({ role: "user", content: "first" });
    const snap = rec.snapshot();
    await rec.append({ role: "assistant", content: "second" });
    assert.deepEqual(snap.messages.map((m) => m.content), ["first"]);
    snap.messages[0].content = "changed by the reader";
    assert.deepEqual(rec.snapshot().messages.map((m) => m.content), ["first", "second"]);
    assert.equal(JSON.parse(JSON.stringify(snap)).messages.length, 1);
    await rec.close();
  });
});

Deno.test("`snapshot()` reads written messages back from the file: the recorder does not keep them in memory", async () => {
  await withTemp(async (dir) => {
    const rec = await createRecorder({ ...base, sessionsDir: dir });
    await rec.append({ role: "tool_response", content: "a long tool output" });
    await rec.append({ role: "assistant", content: "a reply" });
    // Changed on disk behind the recorder's back: only a recorder that reads the file sees it.
    const text = await Deno.readTextFile(rec.path!);
    await Deno.writeTextFile(rec.path!, text.replace("a long tool output", "on disk only......"));
    assert.deepEqual(rec.snapshot().messages.map((m) => m.content), [
      "on disk only......",
      "a reply",
    ]);
    await rec.close();
  });
});

Deno.test("`nullRecorder()` keeps the messages in memory, having no file", async () => {
  const rec = nullRecorder();
  await rec.append({ role: "user", content: "kept" });
  assert.deepEqual(rec.snapshot().messages.map((m) => m.content), ["kept"]);
});
