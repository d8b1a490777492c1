import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findSession, loadSessions, parseSince } from "../../../core/history/lookup.ts";
import { withTempDir } from "../../support/tool_context.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/history/sessions", import.meta.url));

Deno.test("`findSession()` finds an id, a unique prefix, and names an unknown id", async () => {
  const exact = await findSession(FIXTURES, "20260115-090000-bbbbbb");
  assert.ok(exact.ok && exact.summary.model === "qwen-7b");
  const prefix = await findSession(FIXTURES, "20260201");
  assert.ok(prefix.ok && prefix.summary.id === "20260201-120000-cccccc");
  const ambiguous = await findSession(FIXTURES, "2026");
  assert.ok(!ambiguous.ok && /Session id "2026" is ambiguous/.test(ambiguous.message));
  const unknown = await findSession(FIXTURES, "nope");
  assert.deepEqual(unknown, {
    ok: false,
    message: 'Unknown session "nope": run "minoc history list --all" to see the ids',
  });
});

Deno.test("`loadSessions()` skips files that are not sessions and loads the rest", async () => {
  await withTempDir(async (dir) => {
    await Deno.mkdir(join(dir, "2026-01-01"));
    await Deno.copyFile(
      join(FIXTURES, "2026-01-01", "session_20260101-100000-aaaaaa.json"),
      join(dir, "2026-01-01", "session_20260101-100000-aaaaaa.json"),
    );
    await Deno.writeTextFile(join(dir, "2026-01-01", "session_broken.json"), "{ not json");
    const warnings: string[] = [];
    const sessions = await loadSessions(dir, {}, (m) => warnings.push(m));
    assert.deepEqual(sessions.map((s) => s.sessionId), ["20260101-100000-aaaaaa"]);
    assert.deepEqual(warnings, []);
  });
});

Deno.test("`parseSince()` reads a day as local midnight and rejects non-dates", () => {
  assert.equal(parseSince("2026-03-04")?.getTime(), new Date(2026, 2, 4).getTime());
  assert.equal(parseSince("2026-03-04T05:06:07Z")?.toISOString(), "2026-03-04T05:06:07.000Z");
  assert.equal(parseSince("2026-02-31"), null);
  assert.equal(parseSince("yesterday"), null);
});
