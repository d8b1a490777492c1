/**
 * End-to-end: the session's backup folder is made while a call that changes
 * files streams, before the reply ends (its first change then writes only its
 * own lines), and a session whose model only reads makes none.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";

async function sessionBackups(home: string): Promise<string[]> {
  const root = join(home, ".minoc", "history", "backups");
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(root)) out.push(join(root, e.name));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out;
}

Deno.test("a streamed write has its backup folder made before its reply ends; a reading session has none", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_backup_ahead_" }));
  try {
    await Deno.writeTextFile(join(dir, "notes.md"), "line one\n");
    const call =
      "<tool_call>\n<write_to_file>\n<path>new.md</path>\n<content>\nhello\n</content>\n" +
      "</write_to_file>\n</tool_call>";
    const cut = call.indexOf("<content>");
    await using server = await startServer({
      replies: [
        { chunks: [call.slice(0, cut), call.slice(cut, -20), call.slice(-20)], chunkDelayMs: 300 },
        { text: "Done." },
        { text: "<tool_call>\n<read_file>\n<path>notes.md</path>\n</read_file>\n</tool_call>" },
        { text: "It says line one." },
      ],
    });
    const writing = join(dir, ".home-write");
    const r = await runMinoc(
      ["run", "write new.md", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: dir, home: writing },
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(await Deno.readTextFile(join(dir, "new.md")), "hello\n");
    const [store] = await sessionBackups(writing);
    assert.ok(store, "the writing session has a backup folder");
    // new.md did not exist: no copy is saved, so the folder of copies keeps the time it was made.
    const made = (await Deno.stat(join(store, "files"))).mtime!.getTime();
    const replyEnd = server.requests[0].finishedAt!;
    assert.ok(made < replyEnd - 200, `made ${replyEnd - made} ms before the reply ended`);
    const manifest = await Deno.readTextFile(join(store, "manifest.jsonl"));
    assert.equal(JSON.parse(manifest).path, join(dir, "new.md"));

    const reading = join(dir, ".home-read");
    const q = await runMinoc(
      ["run", "read notes.md", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: dir, home: reading },
    );
    assert.equal(q.code, 0, q.stderr + q.stdout);
    assert.deepEqual(await sessionBackups(reading), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
