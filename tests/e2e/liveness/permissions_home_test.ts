/**
 * End-to-end: `minoc permissions add` when the `.minoc` home cannot be
 * written (here: MINOC_HOME below a regular file, which no user can create
 * folders in, root included) says where the rule went instead.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMinoc } from "../../support/cli.ts";

Deno.test("permissions add on an unwritable home says it used the fallback and names the file", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_rohome_" }));
  try {
    await Deno.writeTextFile(join(dir, "blocker"), "a file, not a folder");
    const wanted = join(dir, "blocker", ".minoc");
    const r = await runMinoc(["permissions", "add", "execute_command", "npm test *"], {
      cwd: dir,
      env: { MINOC_HOME: wanted },
    });
    assert.equal(r.code, 0, r.stderr);
    const fallback = join(dir, ".home", ".minoc");
    assert.match(r.stderr, new RegExp(`Cannot write to "${wanted}": using "${fallback}"`));
    const file = join(fallback, "config", "permissions.json");
    assert.match(r.stdout, new RegExp(`Saved in "${file}"`));
    assert.match(await Deno.readTextFile(file), /npm test \*/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
