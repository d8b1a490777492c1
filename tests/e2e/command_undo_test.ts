/**
 * End-to-end: the changes a shell command makes are undoable like any edit.
 * `minoc run` runs two `execute_command` calls that edit, create and remove
 * files and folders; `minoc undo` then reverts the last command, and
 * `minoc undo --all` the rest, back to the project as it was.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";
import { makeTree } from "../support/tool_context.ts";

const command = (line: string) => ({
  text:
    `<tool_call>\n<execute_command>\n<command>${line}</command>\n</execute_command>\n</tool_call>`,
});

async function files(root: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(root, rel))) {
    const path = rel === "" ? e.name : `${rel}/${e.name}`;
    if (path === ".home") continue;
    out.push(e.isDirectory ? `${path}/` : `${path}: ${await Deno.readTextFile(join(root, path))}`);
    if (e.isDirectory) out.push(...await files(root, path));
  }
  return out.sort();
}

Deno.test("minoc undo reverts what execute_command changed, created and removed", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_cmd_undo_" }));
  const home = join(dir, ".home");
  await makeTree(dir, {
    "notes.md": "line one\n",
    "src/old.ts": "export const old = true;\n",
  });
  const original = await files(dir);
  await using server = await startServer({
    replies: [
      command("sed -i 's/one/ONE/' notes.md && rm -r src"),
      command("mkdir -p gen && echo made > gen/new.txt && echo two >> notes.md"),
      { text: "Done." },
    ],
  });
  try {
    const r = await runMinoc(
      ["run", "tidy up", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: dir, home },
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line ONE\ntwo\n");
    assert.equal(await Deno.stat(join(dir, "src")).then(() => true, () => false), false);

    const last = await runMinoc(["undo"], { cwd: dir, home });
    assert.equal(last.code, 0, last.stderr + last.stdout);
    assert.match(last.stdout, /Undo of execute_command mkdir -p gen/);
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line ONE\n");
    assert.equal(await Deno.stat(join(dir, "gen")).then(() => true, () => false), false);

    const rest = await runMinoc(["undo", "--all"], { cwd: dir, home });
    assert.equal(rest.code, 0, rest.stderr + rest.stdout);
    assert.deepEqual(await files(dir), original);
    const backups = join(home, ".minoc", "history", "backups");
    for await (const s of Deno.readDir(backups)) {
      assert.equal(
        await Deno.stat(join(backups, s.name, "mirror")).then(() => true, () => false),
        false,
        "the kept copies are removed when the session ends",
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
