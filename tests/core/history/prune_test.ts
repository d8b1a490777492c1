import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { deletePrunable, findPrunable, parseAge } from "../../../core/history/prune.ts";
import { withTempDir } from "../../support/tool_context.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/history/sessions", import.meta.url));

/** Copies the fixture sessions into `dir/sessions` and gives session A a backup folder. */
async function history(dir: string): Promise<{ sessions: string; backups: string }> {
  const sessions = join(dir, "sessions");
  const backups = join(dir, "backups");
  for (const day of Deno.readDirSync(FIXTURES)) {
    await Deno.mkdir(join(sessions, day.name), { recursive: true });
    for (const f of Deno.readDirSync(join(FIXTURES, day.name))) {
      await Deno.copyFile(join(FIXTURES, day.name, f.name), join(sessions, day.name, f.name));
    }
  }
  await Deno.mkdir(join(backups, "20260101-100000-aaaaaa", "files"), { recursive: true });
  await Deno.writeTextFile(join(backups, "20260101-100000-aaaaaa", "manifest.jsonl"), "{}\n");
  return { sessions, backups };
}

const exists = (p: string) => Deno.stat(p).then(() => true, () => false);

Deno.test("`parseAge()` reads days and weeks and nothing else", () => {
  assert.equal(parseAge("30d"), 30 * 86_400_000);
  assert.equal(parseAge("4w"), 28 * 86_400_000);
  assert.equal(parseAge(" 2W "), 14 * 86_400_000);
  for (const bad of ["30", "d", "3m", "-1d", "1.5d", ""]) assert.equal(parseAge(bad), null, bad);
});

Deno.test("`findPrunable()` picks only sessions started before the cut-off", async () => {
  await withTempDir(async (dir) => {
    const h = await history(dir);
    const old = await findPrunable(h.sessions, h.backups, new Date("2026-01-11T00:00:00Z"));
    assert.deepEqual(old.map((c) => c.id), ["20260101-100000-aaaaaa"]);
    assert.equal(old[0].backupDir, join(h.backups, "20260101-100000-aaaaaa"));
    const older = await findPrunable(h.sessions, h.backups, new Date("2026-01-20T00:00:00Z"));
    assert.deepEqual(older.map((c) => c.id), ["20260101-100000-aaaaaa", "20260115-090000-bbbbbb"]);
    assert.equal(older[1].backupDir, null);
    const beta = await findPrunable(h.sessions, h.backups, new Date("2027-01-01"), "/fixture/beta");
    assert.deepEqual(beta.map((c) => c.id), ["20260201-120000-cccccc"]);
  });
});

Deno.test("`deletePrunable()` deletes the session files, their backups and emptied day folders", async () => {
  await withTempDir(async (dir) => {
    const h = await history(dir);
    const old = await findPrunable(h.sessions, h.backups, new Date("2026-01-20T00:00:00Z"));
    await deletePrunable(old);
    assert.deepEqual([...Deno.readDirSync(h.sessions)].map((e) => e.name), ["2026-02-01"]);
    assert.equal(await exists(join(h.backups, "20260101-100000-aaaaaa")), false);
    assert.ok(await exists(join(h.sessions, "2026-02-01", "session_20260201-120000-cccccc.json")));
  });
});
