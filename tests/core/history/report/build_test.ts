import assert from "node:assert/strict";
import { join } from "node:path";
import { buildReport, type ReportOptions } from "../../../../core/history/report/build.ts";
import { OUTCOMES, type Transcript } from "../../../../core/history/report/data.ts";
import { generateHistory, LEAKED_KEY } from "../../../support/history_gen.ts";

async function withHistory(
  sessions: number,
  fn: (o: Pick<ReportOptions, "sessionsDir" | "backupsDir">, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_report_" });
  try {
    const o = { sessionsDir: join(dir, "sessions"), backupsDir: join(dir, "backups") };
    await generateHistory({ ...o, sessions, messages: 40, home: "/home/ana" });
    await fn(o, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("buildReport() counts every session, message and call outcome of a generated history", async () => {
  await withHistory(30, async (o) => {
    const data = await buildReport({ ...o, redactPaths: false, homes: [] });
    assert.equal(data.totals.sessions, 30);
    assert.equal(data.sessions.length, 30);
    assert.ok(data.totals.messages >= 30 * 34, `messages ${data.totals.messages}`);
    const byOutcome = Object.fromEntries(OUTCOMES.map((k) => [k, 0]));
    for (const t of data.tools) for (const k of OUTCOMES) byOutcome[k] += t.outcomes[k];
    for (const k of OUTCOMES) assert.ok(byOutcome[k] > 0, `no "${k}" call counted`);
    const calls = data.tools.reduce(
      (n, t) => n + OUTCOMES.reduce((a, k) => a + t.outcomes[k], 0),
      0,
    );
    assert.equal(calls, data.totals.calls);
    const gates = data.tools.flatMap((t) => Object.keys(t.deniedBy));
    assert.ok(gates.includes("security") && gates.includes("user"), gates.join());
  });
});

Deno.test("buildReport() gives per-model dialects, first-token times, turns per task and parse errors", async () => {
  await withHistory(12, async (o) => {
    const data = await buildReport({ ...o, redactPaths: false, homes: [] });
    assert.equal(data.models.length, 3);
    for (const m of data.models) {
      assert.ok(Object.values(m.dialects).reduce((a, b) => a + b, 0) > 0, m.model);
      assert.ok(m.ttftP50 !== null && m.ttftP50 > 100 && m.ttftP95! >= m.ttftP50, m.model);
      assert.ok(m.tokensPerSecond !== null && m.tokensPerSecond > 0, m.model);
      assert.equal(m.turnsPerTask.reduce((a, b) => a + b, 0) > 0, true);
      assert.ok(m.tasks > 0 && m.turns >= m.tasks);
    }
    const kinds = new Set(data.models.flatMap((m) => Object.keys(m.parseErrors)));
    assert.ok(kinds.has("unclosed") && kinds.has("invalid_args"), [...kinds].join());
    const slow = data.models.find((m) => m.model === "devstral-small")!;
    const fast = data.models.find((m) => m.model === "gpt-oss-20b")!;
    assert.ok(slow.ttftP50! > fast.ttftP50!, "devstral's generated first tokens are slower");
  });
});

Deno.test("buildReport() embeds the newest transcripts, writes the next ones and summarises the rest", async () => {
  await withHistory(9, async (o) => {
    const written: Transcript[] = [];
    const data = await buildReport({
      ...o,
      redactPaths: false,
      homes: [],
      inlineTranscripts: 2,
      fileTranscripts: 3,
      writeTranscript: (t) => {
        written.push(t);
        return Promise.resolve(`x/${t.id}.html`);
      },
    });
    const places = data.sessions.map((s) => s.transcript);
    assert.deepEqual(places, [
      "inline",
      "inline",
      "file",
      "file",
      "file",
      ...Array(4).fill("none"),
    ]);
    assert.deepEqual(Object.keys(data.transcripts), data.sessions.slice(0, 2).map((s) => s.id));
    assert.deepEqual(written.map((t) => t.id), data.sessions.slice(2, 5).map((s) => s.id));
    assert.equal(data.sessions[2].href, `x/${data.sessions[2].id}.html`);
    const sorted = [...data.sessions].sort((a, b) => b.timestamp.localeCompare(a.timestamp));
    assert.deepEqual(data.sessions.map((s) => s.id), sorted.map((s) => s.id), "newest first");
    const items = Object.values(data.transcripts)[0].items;
    for (const k of ["user", "assistant", "call", "result"]) {
      assert.ok(items.some((i) => i.k === k), `no ${k} entry`);
    }
  });
});

Deno.test("buildReport() marks calls whose backups were undone as undone", async () => {
  await withHistory(6, async (o) => {
    const data = await buildReport({ ...o, redactPaths: false, homes: [] });
    const edits = data.tools.find((t) => t.tool === "replace_in_file")!;
    assert.ok(edits.outcomes.undone > 0 && edits.outcomes.ok > 0, JSON.stringify(edits.outcomes));
    const none = await buildReport({
      ...o,
      backupsDir: join(o.backupsDir, "gone"),
      redactPaths: false,
    });
    assert.equal(none.tools.find((t) => t.tool === "replace_in_file")!.outcomes.undone, 0);
  });
});

Deno.test("buildReport() leaves out API keys always, and home directories with redactPaths", async () => {
  await withHistory(60, async (o) => {
    const plain = JSON.stringify(await buildReport({ ...o, redactPaths: false, homes: [] }));
    assert.ok(plain.includes("[REDACTED]"), "the generated leak was seen and redacted");
    assert.ok(!plain.includes(LEAKED_KEY));
    assert.ok(plain.includes("/home/ana/src/webapp"));
    const hidden = JSON.stringify(await buildReport({ ...o, redactPaths: true, homes: [] }));
    assert.ok(!hidden.includes("/home/ana"), "a home directory is left");
    assert.ok(hidden.includes("~/src/webapp"));
  });
});

Deno.test("buildReport() selects sessions by model, project and start time", async () => {
  await withHistory(12, async (o) => {
    const all = await buildReport({ ...o, redactPaths: false });
    const qwen = await buildReport({ ...o, redactPaths: false, model: "qwen3-coder-30b" });
    assert.equal(qwen.totals.sessions, 4);
    assert.deepEqual(qwen.models.map((m) => m.model), ["qwen3-coder-30b"]);
    const web = await buildReport({
      ...o,
      redactPaths: false,
      projectPath: "/home/ana/src/webapp",
    });
    assert.equal(web.totals.sessions, 3);
    const cut = all.sessions[3].timestamp;
    const recent = await buildReport({ ...o, redactPaths: false, since: new Date(cut) });
    assert.equal(recent.totals.sessions, 4);
    assert.equal(recent.filters.since, new Date(cut).toISOString());
  });
});

Deno.test("buildReport() reads the whole messages of a session cut short by a crash", async () => {
  await withHistory(3, async (o) => {
    const day = [...Deno.readDirSync(o.sessionsDir)][0].name;
    const files = [...Deno.readDirSync(join(o.sessionsDir, day))].map((e) => e.name).sort();
    const cut = join(o.sessionsDir, day, files[0]);
    const text = await Deno.readTextFile(cut);
    await Deno.writeTextFile(cut, text.slice(0, Math.floor(text.length / 2)));
    const warnings: string[] = [];
    const data = await buildReport({ ...o, redactPaths: false, warn: (m) => warnings.push(m) });
    assert.equal(data.totals.sessions, 3);
    assert.ok(data.sessions.some((s) => s.calls > 0));
  });
});
