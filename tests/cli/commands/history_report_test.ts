import assert from "node:assert/strict";
import { join } from "node:path";
import type { Command } from "@commander-js/extra-typings";
import { historyCommand } from "../../../cli/commands/history.ts";
import { CliError, EXIT, memoryIO } from "../../../cli/io.ts";
import { runMinoc } from "../../support/cli.ts";
import { generateHistory } from "../../support/history_gen.ts";

async function withHistory(sessions: number, fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_report_cli_" });
  try {
    await generateHistory({
      sessionsDir: join(dir, "sessions"),
      backupsDir: join(dir, "backups"),
      sessions,
      messages: 20,
    });
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function report(dir: string, args: string[]) {
  const io = memoryIO();
  const cmd = historyCommand(io, {
    sessionsDir: join(dir, "sessions"),
    backupsDir: join(dir, "backups"),
    cwd: dir,
    now: () => new Date(Date.UTC(2026, 9, 3)),
  });
  const all = (c: Command): Command[] => [c, ...(c.commands as Command[]).flatMap(all)];
  for (const c of all(cmd)) c.exitOverride();
  let error: unknown = null;
  try {
    await cmd.parseAsync(["report", ...args], { from: "user" });
  } catch (e) {
    error = e;
  }
  return { io, error };
}

Deno.test("history report writes one HTML file and transcript pages beside it when asked for -o", async () => {
  await withHistory(60, async (dir) => {
    const { io, error } = await report(dir, ["-o", "r.html", "--transcripts", "4"]);
    assert.equal(error, null);
    assert.match(io.stderr, /Wrote a report of 60 sessions to .*r\.html/);
    const html = await Deno.readTextFile(join(dir, "r.html"));
    assert.match(html, /^<!doctype html>/);
    assert.ok(html.includes("echarts"), "the charting library is inlined");
    const pages = [...Deno.readDirSync(join(dir, "r.sessions"))].map((e) => e.name);
    assert.equal(pages.length, 4);
    const page = await Deno.readTextFile(join(dir, "r.sessions", pages[0]));
    assert.ok(page.includes('href="../r.html"'));
    assert.ok(!page.includes("echarts.init"), "a transcript page carries no charts");
  });
});

Deno.test("history report takes --since as an age relative to now and --model as a filter", async () => {
  await withHistory(24, async (dir) => {
    // The history starts 2026-10-01 08:00 UTC with a session every ~3 hours; "now" is 10-03.
    const { io, error } = await report(dir, ["--since", "1d", "--model", "gpt-oss-20b"]);
    assert.equal(error, null);
    const html = await Deno.readTextFile(join(dir, "minoc-report.html"));
    const data = JSON.parse(/id="report-data">(.*?)<\/script>/s.exec(html)![1]);
    assert.ok(data.totals.sessions > 0 && data.totals.sessions < 8, String(data.totals.sessions));
    assert.deepEqual(data.models.map((m: { model: string }) => m.model), ["gpt-oss-20b"]);
    assert.match(io.stderr, /Wrote a report of \d sessions?/);
  });
});

Deno.test("history report rejects a bad --since or --transcripts with exit code 2", async () => {
  await withHistory(1, async (dir) => {
    for (
      const [args, message] of [
        [["--since", "yesterday"], 'Invalid --since "yesterday": use an age such as 30d'],
        [["--transcripts", "many"], 'Invalid --transcripts "many": expected a whole number'],
      ] as const
    ) {
      const { error } = await report(dir, [...args]);
      assert.ok(error instanceof CliError, String(error));
      assert.equal(error.exitCode, EXIT.usage);
      assert.ok(error.message.startsWith(message), error.message);
    }
  });
});

Deno.test("history report fails with exit code 1 naming the folder when the output folder is missing", async () => {
  await withHistory(1, async (dir) => {
    const { error } = await report(dir, ["-o", "missing/r.html"]);
    assert.ok(error instanceof CliError);
    assert.equal(error.exitCode, EXIT.failed);
    assert.match(error.message, /Cannot write the report: the folder ".*missing" does not exist/);
  });
});

Deno.test("minoc history report --open hands the file to the system opener", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_report_open_" });
  try {
    const bin = join(dir, "bin");
    await Deno.mkdir(bin);
    const opener = join(bin, "xdg-open");
    await Deno.writeTextFile(opener, `#!/bin/sh\necho "$1" > "${dir}/opened"\n`);
    await Deno.chmod(opener, 0o755);
    const run = await runMinoc(["history", "report", "--open", "-o", "r.html"], {
      cwd: dir,
      env: { PATH: `${bin}:${Deno.env.get("PATH")}` },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Wrote a report of 0 sessions/);
    assert.match(run.stderr, /No sessions matched/);
    assert.equal((await Deno.readTextFile(join(dir, "opened"))).trim(), join(dir, "r.html"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
