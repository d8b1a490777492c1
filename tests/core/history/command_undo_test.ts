import assert from "node:assert/strict";
import { join } from "node:path";
import { CommandUndo, undoNote } from "../../../core/history/command_undo.ts";
import { undoChanges } from "../../../core/history/undo.ts";
import { makeTree } from "../../support/tool_context.ts";
import { command, lab, sh, tree } from "../../support/command_undo_lab.ts";

Deno.test("CommandUndo: undo puts back what a shell command changed, created and removed", async () => {
  await using l = await lab();
  const watch = new CommandUndo({ root: l.project, store: l.store });
  const original = await tree(l.project);
  const { after } = await command(
    watch,
    l,
    "echo two >> notes.md && rm src/app.ts && mkdir -p gen/deep && echo made > gen/deep/x.txt" +
      " && rm -r docs && mkdir dist && echo built > dist/out.js",
  );
  assert.deepEqual(after.lost, []);
  // notes.md changed, app.ts removed, gen/ and gen/deep/ and x.txt created,
  // intro.md and setup.md removed, then docs/guide/ and docs/ removed.
  assert.equal(after.recorded, 9);
  assert.equal(await Deno.readTextFile(join(l.project, "notes.md")), "line one\ntwo\n");

  const report = await undoChanges(l.store);
  assert.deepEqual(report.skipped, []);
  const back = await tree(l.project);
  // dist/ is ignored by .gitignore, so it is neither watched nor removed.
  assert.equal(back["dist/out.js"], "built\n");
  delete back["dist/"];
  delete back["dist/out.js"];
  assert.deepEqual(back, original);
});

Deno.test("CommandUndo: only new or changed files are copied again", async () => {
  await using l = await lab();
  const watch = new CommandUndo({ root: l.project, store: l.store });
  const mirror = join(l.store.dir, "mirror");
  const packed = async () => (await Deno.stat(join(mirror, "pack"))).size;
  const sizes = async (...rel: string[]) => {
    let n = 0;
    for (const r of rel) n += (await Deno.stat(join(l.project, r))).size;
    return n;
  };
  const all = [
    "notes.md",
    "src/app.ts",
    "docs/guide/intro.md",
    "docs/guide/setup.md",
    ".gitignore",
  ];
  await command(watch, l, "true");
  assert.equal(await packed(), await sizes(...all), "every file is kept once");
  await command(watch, l, "true");
  assert.equal(await packed(), await sizes(...all), "nothing changed, nothing copied");
  await sh(l.project, "echo changed > notes.md && rm src/app.ts && echo new > new.txt");
  const before = await packed();
  await command(watch, l, "echo three >> notes.md");
  assert.equal(await packed(), before + "new\n".length + "changed\n".length);

  // The second command's change to notes.md undoes to what the file held just before it.
  await undoChanges(l.store);
  assert.equal(await Deno.readTextFile(join(l.project, "notes.md")), "changed\n");
  await watch.dispose();
  assert.equal(await Deno.stat(mirror).then(() => true, () => false), false);
});

Deno.test("CommandUndo: files too large to keep are named as not undoable; excluded folders are not watched", async () => {
  await using l = await lab();
  await Deno.writeTextFile(join(l.project, "big.bin"), "x".repeat(2000));
  await makeTree(l.project, { ".home/state.json": "{}\n" });
  const watch = new CommandUndo({
    root: l.project,
    store: l.store,
    exclude: [join(l.project, ".home")],
    limits: { maxFileBytes: 1000 },
  });
  const { before, after } = await command(
    watch,
    l,
    "echo y >> big.bin && echo z >> notes.md && echo '{\"a\":1}' > .home/state.json",
  );
  assert.deepEqual(after.lost, ["big.bin"]);
  assert.equal(after.recorded, 1, "notes.md only; .home/ is excluded");
  assert.match(undoNote(before, after), /cannot be undone .*: big\.bin/);
  assert.equal(undoNote(before, { recorded: 1, lost: [] }), "");
  assert.match(undoNote(null, null), /cannot be undone/);
  await undoChanges(l.store);
  assert.equal(await Deno.readTextFile(join(l.project, "notes.md")), "line one\n");
  assert.equal(await Deno.readTextFile(join(l.project, ".home/state.json")), '{"a":1}\n');
});

Deno.test("CommandUndo: a file replaced by a folder is reported, not half undone", async () => {
  await using l = await lab();
  const watch = new CommandUndo({ root: l.project, store: l.store });
  const { after } = await command(watch, l, "rm notes.md && mkdir notes.md");
  assert.deepEqual(after.lost, ["notes.md"]);
});

Deno.test("CommandUndo: a later command's nested creations, changes and removals undo completely (looks patched from the watcher)", async () => {
  await using l = await lab();
  const watch = new CommandUndo({ root: l.project, store: l.store });
  await command(watch, l, "true"); // the first look walks; later ones list changed folders only
  const original = await tree(l.project);
  const { after } = await command(
    watch,
    l,
    "echo two >> docs/guide/intro.md && rm src/app.ts && mkdir -p gen/deep/er" +
      " && echo made > gen/deep/x.txt && echo more > gen/deep/er/y.txt && rm -r docs/guide",
  );
  assert.deepEqual(after.lost, []);
  // app.ts removed; gen/, gen/deep/, gen/deep/er/, x.txt, y.txt created;
  // intro.md (changed, then) and setup.md removed, then docs/guide/ removed.
  assert.equal(after.recorded, 9);
  const report = await undoChanges(l.store);
  assert.deepEqual(report.skipped, []);
  assert.deepEqual(await tree(l.project), original);
  await watch.dispose();
});

Deno.test("CommandUndo: a folder renamed, one moved in from outside and a file changed in place by later commands undo completely", async () => {
  await using l = await lab();
  const watch = new CommandUndo({ root: l.project, store: l.store });
  await command(watch, l, "true");
  await command(watch, l, "printf 'export const a = 2;\\n' > src/app.ts");
  assert.equal(await Deno.readTextFile(join(l.project, "src/app.ts")), "export const a = 2;\n");
  const middle = await tree(l.project);
  const { after } = await command(
    watch,
    l,
    "mv docs documents && mkdir -p ../outside/sub && echo o > ../outside/sub/f.txt" +
      " && mv ../outside moved && printf 'export const a = 3;\\n' > src/app.ts",
  );
  assert.deepEqual(after.lost, []);
  const report = await undoChanges(l.store);
  assert.deepEqual(report.skipped, []);
  assert.deepEqual(await tree(l.project), middle, "the last command is undone");
  await undoChanges(l.store);
  assert.equal(await Deno.readTextFile(join(l.project, "src/app.ts")), "export const a = 1;\n");
  await watch.dispose();
});

Deno.test("CommandUndo: a folder one command creates is watched for the next: a change inside it undoes", async () => {
  await using l = await lab();
  const watch = new CommandUndo({ root: l.project, store: l.store });
  await command(watch, l, "true");
  await command(watch, l, "mkdir -p gen/new && echo first > gen/new/a.txt");
  await sh(l.project, "echo between > gen/new/b.txt"); // outside any command
  const { after } = await command(
    watch,
    l,
    "echo second > gen/new/a.txt && echo changed > gen/new/b.txt",
  );
  assert.deepEqual(after.lost, []);
  assert.equal(after.recorded, 2);
  await undoChanges(l.store);
  assert.equal(await Deno.readTextFile(join(l.project, "gen/new/a.txt")), "first\n");
  assert.equal(await Deno.readTextFile(join(l.project, "gen/new/b.txt")), "between\n");
  await watch.dispose();
});
