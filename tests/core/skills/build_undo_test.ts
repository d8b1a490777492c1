import assert from "node:assert/strict";
import { join } from "node:path";
import { createBackupStore } from "../../../core/history/backups.ts";
import { undoChanges } from "../../../core/history/undo.ts";
import { keepBuild } from "../../../core/skills/build_undo.ts";
import { createSkillHost } from "../../../core/skills/host.ts";
import { discoverSkills } from "../../../core/skills/index.ts";
import { skillProject } from "../../support/skills.ts";

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test("a script's changes under build/ are recorded in the call's change group, and undo puts build/ back", async () => {
  await using p = await skillProject();
  const build = join(p.dir, "build");
  await Deno.mkdir(build);
  await Deno.writeTextFile(join(build, "keep.txt"), "old\n");
  await Deno.writeTextFile(join(build, "gone.txt"), "precious\n");
  const backups = await createBackupStore(join(p.dir, ".backups"), "s1");
  const index = await discoverSkills([join(p.dir, "skills")], () => {});
  const host = await createSkillHost({ index, projectDir: p.dir, backups });
  backups.beginGroup("run_skill_script sandbox-lab rewrite.sh");
  const r = await host.run(
    { name: "sandbox-lab", script: "rewrite.sh", args: [] },
    new AbortController().signal,
  );
  const ids = backups.endGroup();
  assert.ok(r.ok, r.output);
  assert.equal(await Deno.readTextFile(join(build, "keep.txt")), "new\n");
  assert.equal(await exists(join(build, "gone.txt")), false);
  assert.equal(ids.length, 5, "out/, out/deep/, made.txt, keep.txt, gone.txt");

  const report = await undoChanges(backups);
  assert.deepEqual(report.skipped, []);
  assert.equal(await Deno.readTextFile(join(build, "keep.txt")), "old\n");
  assert.equal(await Deno.readTextFile(join(build, "gone.txt")), "precious\n");
  assert.equal(await exists(join(build, "out")), false);
});

Deno.test("a script that creates build/ is undone down to no build/; a build/ over the limit is not kept", async () => {
  await using p = await skillProject();
  const build = join(p.dir, "build");
  const backups = await createBackupStore(join(p.dir, ".backups"), "s2");
  const index = await discoverSkills([join(p.dir, "skills")], () => {});
  const host = await createSkillHost({ index, projectDir: p.dir, backups });
  backups.beginGroup("run");
  const r = await host.run(
    { name: "sandbox-lab", script: "write.sh", args: [] },
    new AbortController().signal,
  );
  backups.endGroup();
  assert.ok(r.ok, r.output);
  await undoChanges(backups);
  assert.equal(await exists(build), false);

  await Deno.mkdir(build);
  await Deno.writeTextFile(join(build, "big.bin"), "x".repeat(2000));
  assert.equal(await keepBuild(build, 1000), null);
  assert.equal((await keepBuild(build, 4000))?.files.size, 1);
});
