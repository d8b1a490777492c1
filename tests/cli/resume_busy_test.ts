/**
 * `chooseResume()` and `resumeSession()` with a session another writer
 * holds: refused without a terminal (exit 3); in a terminal the user forks
 * it into a new session (the old file untouched) or starts a new one.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { chooseResume, resumeSession } from "../../cli/resume.ts";
import { CliError } from "../../cli/io.ts";
import { createRecorder } from "../../core/history/recorder.ts";
import { listSessions, loadSession } from "../../core/history/store.ts";
import { tryLockSession } from "../../core/history/session_lock.ts";

async function withBusySession(
  fn: (o: { dir: string; sessions: string; path: string }) => Promise<void>,
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_busy_" }));
  const sessions = join(dir, "sessions");
  // The other writer: a recorder that stays open (it holds the lock) for the whole test.
  const other = await createRecorder({
    sessionsDir: sessions,
    model: "m",
    projectPath: dir,
    mode: "agent",
  });
  try {
    await other.append({ role: "user", content: "hello" });
    await other.append({ role: "assistant", content: "hi" });
    await fn({ dir, sessions, path: other.path! });
  } finally {
    await other.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("chooseResume() refuses a session in use with exit 3 when there is no terminal", async () => {
  await withBusySession(async ({ dir, sessions }) => {
    const err = await chooseResume({ continue: true }, dir, {
      interactive: false,
      sessionsDir: sessions,
    })
      .then(() => null, (e) => e);
    assert.ok(err instanceof CliError);
    assert.equal(err.exitCode, 3);
    assert.match(err.message, /is in use by another minoc process \(pid \d+/);
  });
});

Deno.test("resumeSession() forks a session in use into a new file when the user picks fork", async () => {
  await withBusySession(async ({ dir, sessions, path }) => {
    const target = await chooseResume({ continue: true }, dir, {
      interactive: true,
      sessionsDir: sessions,
      busy: () => Promise.resolve("fork"),
    });
    assert.ok(target?.forkInto);
    const resumed = await resumeSession(target, { systemPrompt: "s", mode: "agent", model: "m" });
    try {
      assert.notEqual(resumed.recorder.path, path);
      await resumed.recorder.append({ role: "user", content: "more" });
      assert.deepEqual(resumed.messages.slice(1).map((m) => m.content), ["hello", "hi"]);
    } finally {
      await resumed.recorder.close();
    }
    const fork = await loadSession(resumed.recorder.path!);
    assert.equal(fork.metadata.forkedFrom, target.session.sessionId);
    assert.deepEqual(fork.messages.filter((m) => m.role === "user").map((m) => m.content), [
      "hello",
      "more",
    ]);
    assert.equal((await loadSession(path)).messages.length, 2, "the original is untouched");
    assert.equal((await listSessions(sessions)).length, 2);
  });
});

Deno.test("chooseResume() starts a new session when the user picks new for a session in use", async () => {
  await withBusySession(async ({ dir, sessions }) => {
    const target = await chooseResume({ continue: true }, dir, {
      interactive: true,
      sessionsDir: sessions,
      busy: () => Promise.resolve("new"),
    });
    assert.equal(target, null);
  });
});

Deno.test("tryLockSession() fails while another recorder holds the session", async () => {
  await withBusySession(({ path }) => {
    const busy = tryLockSession(path);
    assert.equal(busy.ok, false);
    return Promise.resolve();
  });
});
