import assert from "node:assert/strict";
import { join } from "node:path";
import { Command } from "@commander-js/extra-typings";
import { slashUndo, undoCommand } from "../../cli/commands/undo.ts";
import { CliError, EXIT, memoryIO } from "../../cli/io.ts";
import { backingUpFs } from "../../core/history/backup_fs.ts";
import { type BackupStore, createBackupStore } from "../../core/history/backups.ts";
import { createRecorder } from "../../core/history/recorder.ts";
import { realFs } from "../../core/tools/fs_port.ts";
import { withTempDir } from "../support/tool_context.ts";

const enc = new TextEncoder();

interface World {
  project: string;
  sessionsDir: string;
  backupsDir: string;
}

async function world(dir: string): Promise<World> {
  const w = {
    project: join(dir, "project"),
    sessionsDir: join(dir, "sessions"),
    backupsDir: join(dir, "backups"),
  };
  await Deno.mkdir(w.project);
  return w;
}

/** Records a session in `w.project` and returns its backup store (as the chat would open it). */
async function session(w: World, start: Date): Promise<BackupStore> {
  const rec = await createRecorder({
    sessionsDir: w.sessionsDir,
    model: "m",
    projectPath: w.project,
    mode: "agent",
    now: () => start,
  });
  await rec.append({ role: "user", content: "change files" });
  await rec.close();
  return await createBackupStore(join(w.backupsDir, rec.sessionId), rec.sessionId);
}

/** Writes `text` to `rel` through the backing-up port, as one tool call. */
async function write(store: BackupStore, w: World, rel: string, text: string): Promise<void> {
  store.beginGroup(`write_to_file ${rel}`);
  await backingUpFs(realFs, store).writeFile(join(w.project, rel), enc.encode(text));
  store.endGroup();
}

async function run(args: string[], w: World) {
  const io = memoryIO();
  const program = new Command().exitOverride().configureOutput({
    writeOut: io.out,
    writeErr: io.err,
  });
  program.addCommand(
    undoCommand(io, { sessionsDir: w.sessionsDir, backupsDir: w.backupsDir, cwd: w.project })
      .exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err }),
  );
  await program.parseAsync(["undo", ...args], { from: "user" });
  return io;
}

const read = (w: World, rel: string) => Deno.readTextFile(join(w.project, rel));

Deno.test("`minoc undo` reverts the last change of the latest session in this directory", async () => {
  await withTempDir(async (dir) => {
    const w = await world(dir);
    const older = await session(w, new Date(2026, 0, 1));
    await write(older, w, "old.txt", "from an older session");
    const latest = await session(w, new Date(2026, 0, 2));
    await Deno.writeTextFile(join(w.project, "a.txt"), "a0");
    await write(latest, w, "a.txt", "a1");
    await write(latest, w, "b.txt", "b1");
    const io = await run([], w);
    assert.match(
      io.stdout,
      new RegExp(
        `^Session ${latest.sessionId}\nUndo of write_to_file b\\.txt:\n  deleted +b\\.txt\nReverted 1 change\n$`,
      ),
    );
    assert.equal(io.exitCode, EXIT.ok);
    assert.equal(await read(w, "a.txt"), "a1");
    await run([], w);
    assert.equal(await read(w, "a.txt"), "a0");
    assert.equal(await read(w, "old.txt"), "from an older session");
    assert.equal((await run([], w)).stdout, `Session ${latest.sessionId}\nNothing to undo\n`);
  });
});

Deno.test("`minoc undo --session ID --all` reverts every change of that session, newest first", async () => {
  await withTempDir(async (dir) => {
    const w = await world(dir);
    const first = await session(w, new Date(2026, 0, 1));
    await write(first, w, "x.txt", "x1");
    await write(first, w, "x.txt", "x2");
    await write(first, w, "y.txt", "y1");
    await session(w, new Date(2026, 0, 2));
    const io = await run(["--session", first.sessionId.slice(0, 12), "--all", "--json"], w);
    const report = JSON.parse(io.stdout);
    assert.equal(report.sessionId, first.sessionId);
    assert.deepEqual(
      report.reverted.map((i: { path: string }) => i.path.slice(w.project.length + 1)),
      ["y.txt", "x.txt", "x.txt"],
    );
    assert.deepEqual([...Deno.readDirSync(w.project)], []);
  });
});

Deno.test("`minoc undo` leaves a file changed since alone (exit 1) and reverts it with --force", async () => {
  await withTempDir(async (dir) => {
    const w = await world(dir);
    const store = await session(w, new Date(2026, 0, 1));
    await Deno.writeTextFile(join(w.project, "n.md"), "original");
    await write(store, w, "n.md", "agent");
    await Deno.writeTextFile(join(w.project, "n.md"), "user");
    const refused = await run([], w);
    assert.equal(refused.exitCode, EXIT.failed);
    assert.match(
      refused.stdout,
      /skipped +n\.md: it was changed since minoc changed it; left alone \(use --force to revert it anyway\)\n/,
    );
    assert.equal(await read(w, "n.md"), "user");
    const forced = await run(["--force"], w);
    assert.equal(forced.exitCode, EXIT.ok);
    assert.equal(await read(w, "n.md"), "original");
  });
});

Deno.test("`minoc undo` exits 2 for an unknown session id or a directory without sessions", async () => {
  await withTempDir(async (dir) => {
    const w = await world(dir);
    const check = (pattern: RegExp) => (e: unknown) => {
      assert.ok(
        e instanceof CliError && e.exitCode === EXIT.usage && pattern.test(e.message),
        String(e),
      );
      return true;
    };
    await assert.rejects(run([], w), check(/^No session recorded in ".*project": nothing to undo/));
    await session(w, new Date(2026, 0, 1));
    await assert.rejects(run(["--session", "zzz"], w), check(/^Unknown session "zzz"/));
  });
});

Deno.test("`slashUndo()` reverts the live session's last change and checks its options", async () => {
  await withTempDir(async (dir) => {
    const w = await world(dir);
    const store = await session(w, new Date(2026, 0, 1));
    await write(store, w, "s.txt", "s1");
    const io = memoryIO();
    assert.equal(await slashUndo(" --bogus", store, io, w.project), null);
    assert.match(io.stdout, /^Unknown option "--bogus" for \/undo/);
    const report = await slashUndo("", store, io, w.project);
    assert.deepEqual(report?.reverted.map((i) => i.action), ["deleted"]);
    assert.match(io.stdout, /deleted +s\.txt\n/);
    assert.equal(await slashUndo("--all", null, io, w.project), null);
    assert.match(io.stdout, /this session keeps no backups/);
  });
});
