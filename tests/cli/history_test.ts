import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command } from "@commander-js/extra-typings";
import { historyCommand, type HistoryEnv } from "../../cli/commands/history.ts";
import { CliError, EXIT, memoryIO } from "../../cli/io.ts";
import { withTempDir } from "../support/tool_context.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/history/sessions", import.meta.url));
const A = "20260101-100000-aaaaaa";
const B = "20260115-090000-bbbbbb";
const C = "20260201-120000-cccccc";

/** Runs `history <args>` in-process; returns the IO with its output. */
async function run(args: string[], env: Partial<HistoryEnv> = {}) {
  const io = memoryIO();
  const program = new Command();
  program.addCommand(historyCommand(io, { sessionsDir: FIXTURES, cwd: "/fixture/alpha", ...env }));
  const configure = (cmd: Command): void => {
    cmd.exitOverride().configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
    for (const sub of cmd.commands) configure(sub as Command);
  };
  configure(program);
  await program.parseAsync(["history", ...args], { from: "user" });
  return io;
}

async function usageError(args: string[], pattern: RegExp, env: Partial<HistoryEnv> = {}) {
  await assert.rejects(run(args, env), (e: unknown) => {
    assert.ok(e instanceof CliError, String(e));
    assert.equal(e.exitCode, EXIT.usage);
    assert.match(e.message, pattern);
    return true;
  });
}

Deno.test("`history list` shows the current directory's sessions, newest first", async () => {
  const io = await run(["list"]);
  const lines = io.stdout.trimEnd().split("\n");
  assert.match(lines[0], /^id +started +model +messages +first request$/);
  assert.deepEqual(lines.slice(1).map((l) => l.split(" ")[0]), [B, A]);
  assert.match(lines[2], /qwen-7b +20 +Fix the typo in README\.md$/);
});

Deno.test("`history list` filters by --project and shows every project with --all", async () => {
  const beta = JSON.parse((await run(["list", "--project", "/fixture/beta", "--json"])).stdout);
  assert.deepEqual(beta.map((s: { id: string }) => s.id), [C]);
  const all = await run(["list", "--all"]);
  assert.match(all.stdout, /^id +started +model +messages +project +first request\n/);
  assert.equal(all.stdout.trimEnd().split("\n").length, 4);
  assert.match(all.stdout, /\/fixture\/beta +List the files\n/);
  const none = await run(["list"], { cwd: "/fixture/gamma" });
  assert.equal(none.stdout, 'No sessions in "/fixture/gamma" (add --all to see every project)\n');
  await usageError(["list", "--all", "--project", "/x"], /Use either --project or --all/);
});

Deno.test("`history show` prints a transcript with each gate's verdict", async () => {
  const io = await run(["show", A]);
  assert.match(io.stdout, /tool call: execute_command rm -rf \/\n/);
  assert.match(
    io.stdout,
    /gate security: deny \(delete-root\) \[critical\]: deletes the whole file system\n/,
  );
  assert.match(io.stdout, /gate approval: pass \(user: allow once\)\n/);
  const json = JSON.parse((await run(["show", "20260201", "--json"])).stdout);
  assert.equal(json.sessionId, C);
  assert.equal(json.messages.length, 16);
});

Deno.test("`history show` names an unknown id with exit code 2", async () => {
  await usageError(["show", "20991231-000000-ffffff"], /^Unknown session "20991231-000000-ffffff"/);
});

Deno.test("`history stats` prints tables by default and JSON with --json", async () => {
  const text = (await run(["stats"])).stdout;
  assert.match(
    text,
    /^Tools\ntool +calls +approved +denied +blocked +invalid +errors +mean ms +p95 ms\n/,
  );
  assert.match(text, /\nread_file +3 +2 +0 +0 +1 +1 +20 +30\n/);
  assert.doesNotMatch(text, /llama/);
  const all = JSON.parse((await run(["stats", "--all", "--since", "2026-01-10", "--json"])).stdout);
  assert.deepEqual(all.sessions.map((s: { id: string }) => s.id), [B, C]);
  await usageError(["stats", "--since", "last week"], /^Invalid date "last week"/);
});

Deno.test("`history export --all --format openai` writes one chat example per session", async () => {
  const io = await run(["export", "--all", "--format", "openai"]);
  const lines = io.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 3);
  for (const l of lines) {
    assert.equal(l.messages[0].role, "system");
    assert.equal(l.messages[1].role, "user");
    assert.equal(l.messages.at(-1).role, "assistant");
  }
  const beta = await run(["export", "--all", "--project", "/fixture/beta", "--format", "openai"]);
  assert.equal(beta.stdout.trimEnd().split("\n").length, 1);
});

Deno.test("`history export <id> --format jsonl --output FILE` writes the whole session", async () => {
  await withTempDir(async (dir) => {
    const io = await run(["export", B, "--format", "jsonl", "--output", "out.jsonl"], { cwd: dir });
    const text = await Deno.readTextFile(join(dir, "out.jsonl"));
    assert.equal(text.split("\n").length, 2);
    assert.equal(JSON.parse(text).sessionId, B);
    assert.equal(io.stdout, "");
    assert.match(io.stderr, /^Wrote 1 line to .*out\.jsonl\n$/);
  });
});

Deno.test("`history export` needs exactly one of an id or --all, and a known format", async () => {
  await usageError(["export", "--format", "jsonl"], /Give either a session id or --all/);
  await usageError(
    ["export", A, "--all", "--format", "jsonl"],
    /Give either a session id or --all/,
  );
  await usageError(["export", "nope", "--format", "jsonl"], /Unknown session "nope"/);
  await assert.rejects(run(["export", A, "--format", "csv"]), /Allowed choices are jsonl, openai/);
});

Deno.test("`history prune --dry-run` lists old sessions and deletes nothing; prune deletes them", async () => {
  await withTempDir(async (dir) => {
    const sessionsDir = join(dir, "history", "sessions");
    for (const day of Deno.readDirSync(FIXTURES)) {
      await Deno.mkdir(join(sessionsDir, day.name), { recursive: true });
      for (const f of Deno.readDirSync(join(FIXTURES, day.name))) {
        await Deno.copyFile(join(FIXTURES, day.name, f.name), join(sessionsDir, day.name, f.name));
      }
    }
    const backup = join(dir, "history", "backups", A);
    await Deno.mkdir(backup, { recursive: true });
    await Deno.writeTextFile(join(backup, "manifest.jsonl"), "");
    const env = { sessionsDir, now: () => new Date("2026-02-10T00:00:00Z") };
    const dry = await run(["prune", "--older-than", "30d", "--dry-run"], env);
    assert.match(
      dry.stdout,
      new RegExp(`^Would delete ${A} \\(2026-01-01, /fixture/alpha\\) and its backups: `),
    );
    assert.match(
      dry.stdout,
      /\n1 session, .* would be deleted; run without --dry-run to delete them\n$/,
    );
    assert.equal(JSON.parse((await run(["list", "--all", "--json"], env)).stdout).length, 3);
    const real = await run(["prune", "--older-than", "4w"], env);
    assert.match(real.stdout, new RegExp(`^Deleted ${A} `));
    const left = JSON.parse((await run(["list", "--all", "--json"], env)).stdout);
    assert.deepEqual(left.map((s: { id: string }) => s.id), [C, B]);
    assert.equal(await Deno.stat(backup).then(() => true, () => false), false);
    const none = await run(["prune", "--older-than", "30d"], env);
    assert.match(none.stdout, /^No sessions started before 2026-01-11T00:00:00\.000Z\n$/);
  });
});

Deno.test("`history prune` rejects a bad age and requires --older-than", async () => {
  await usageError(
    ["prune", "--older-than", "30"],
    /^Invalid age "30": use days or weeks, e\.g\. 30d or 4w$/,
  );
  await assert.rejects(run(["prune"]), /required option '--older-than <age>' not specified/);
});
