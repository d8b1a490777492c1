/** `findPrunable()` leaves alone a session a running process still writes. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRecorder } from "../../../core/history/recorder.ts";
import { findPrunable } from "../../../core/history/prune.ts";

Deno.test("findPrunable() skips an old session while its recorder holds the lock", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_prune_lock_" }));
  try {
    const sessions = join(dir, "sessions");
    const old = new Date(Date.now() - 90 * 86_400_000);
    const rec = await createRecorder({
      sessionsDir: sessions,
      model: "m",
      projectPath: dir,
      mode: "agent",
      now: () => old,
    });
    await rec.append({ role: "user", content: "still running" });
    const cutoff = new Date(Date.now() - 30 * 86_400_000);
    assert.deepEqual(await findPrunable(sessions, join(dir, "backups"), cutoff), []);
    await rec.close();
    const after = await findPrunable(sessions, join(dir, "backups"), cutoff);
    assert.deepEqual(after.map((c) => c.id), [rec.sessionId]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
