/**
 * The undo watch's later looks (Linux, where the watcher reports which
 * folders changed): a look costs what changed, and undo stays complete.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CommandUndo } from "../../../core/history/command_undo.ts";
import { undoChanges } from "../../../core/history/undo.ts";
import { command, lab, sh, tree } from "../../support/command_undo_lab.ts";

const LINUX = Deno.build.os === "linux";

Deno.test({
  name:
    "CommandUndo: a command that changes nothing keeps the last look; a change made between commands is still seen",
  ignore: !LINUX,
  fn: async () => {
    await using l = await lab();
    const watch = new CommandUndo({ root: l.project, store: l.store });
    const first = await command(watch, l, "true");
    const second = await command(watch, l, "cat notes.md > /dev/null");
    assert.equal(second.before, first.before, "nothing changed: the same look, nothing copied");
    assert.deepEqual(second.after, { recorded: 0, lost: [] });
    await sh(l.project, "echo between > notes.md && echo new > src/new.ts"); // outside any command
    const third = await command(watch, l, "true");
    assert.notEqual(third.before, second.before);
    assert.deepEqual(third.after, { recorded: 0, lost: [] });
    const between = await tree(l.project);
    const { after } = await command(watch, l, "echo last >> notes.md && rm src/new.ts");
    assert.deepEqual(after, { recorded: 2, lost: [] });
    await undoChanges(l.store);
    assert.deepEqual(await tree(l.project), between);
    await watch.dispose();
  },
});

Deno.test({
  name: "CommandUndo: a file past the total is copied once room is made, though it did not change",
  ignore: !LINUX,
  fn: async () => {
    await using l = await lab();
    // Each in a folder of its own: removing one changes nothing in the other's folder.
    await sh(l.project, "mkdir x y && printf '%060d' 1 > x/a.bin && printf '%060d' 2 > y/b.bin");
    const limits = { maxTotalBytes: 140 }; // the five small files (51 bytes) and one of the two
    const watch = new CommandUndo({ root: l.project, store: l.store, limits });
    const { before } = await command(watch, l, "true");
    const kept = (p: string) => before.paths.get(join(l.project, p))?.copy !== undefined;
    const [big, other] = kept("x/a.bin") ? ["x/a.bin", "y/b.bin"] : ["y/b.bin", "x/a.bin"];
    assert.ok(!kept(other), "the total leaves room for one of the two");
    await command(watch, l, `rm ${big}`);
    const { after } = await command(watch, l, `echo changed > ${other}`);
    assert.deepEqual(after, { recorded: 1, lost: [] }, "the other file was kept meanwhile");
    await undoChanges(l.store);
    assert.equal((await Deno.readTextFile(join(l.project, other))).length, 60);
    await watch.dispose();
  },
});

Deno.test("CommandUndo: after() takes only what the last before() gave", async () => {
  await using l = await lab();
  const watch = new CommandUndo({ root: l.project, store: l.store });
  const old = await watch.before();
  await watch.after(old);
  await sh(l.project, "echo x > notes.md");
  await watch.after(await watch.before());
  await assert.rejects(() => watch.after(old), /last before\(\)/);
  await watch.dispose();
});
