import assert from "node:assert/strict";
import { join } from "node:path";
import { chmod, parseMode } from "../../../core/tools/chmod.ts";
import { toolContext } from "../../fixtures/proc/context.ts";

async function withFile(fn: (dir: string, file: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_chmod_" });
  try {
    const file = join(dir, "run.sh");
    await Deno.writeTextFile(file, "#!/bin/sh\necho hi\n");
    await Deno.chmod(file, 0o644);
    await fn(dir, file);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const modeOf = async (path: string) => (await Deno.stat(path)).mode! & 0o7777;

Deno.test("`chmod` sets octal modes when given 755 or 0640", async () => {
  await withFile(async (dir, file) => {
    const r = await chmod.execute({ path: "run.sh", mode: "755" }, toolContext({ cwd: dir }));
    assert.equal(r.ok, true);
    assert.equal(r.output, 'Changed the mode of "run.sh" from 644 to 755');
    assert.equal(await modeOf(file), 0o755);
    await chmod.execute({ path: file, mode: "0640" }, toolContext({ cwd: "/" }));
    assert.equal(await modeOf(file), 0o640);
  });
});

Deno.test("`chmod` applies symbolic clauses when given +x or go-rx,u=rwx", async () => {
  await withFile(async (dir, file) => {
    await chmod.execute({ path: "run.sh", mode: "+x" }, toolContext({ cwd: dir }));
    assert.equal(await modeOf(file), 0o755);
    await chmod.execute({ path: "run.sh", mode: "go-rx,u=rwx" }, toolContext({ cwd: dir }));
    assert.equal(await modeOf(file), 0o700);
  });
});

Deno.test("`chmod` fails with a clear result when the mode or path is wrong", async () => {
  await withFile(async (dir, file) => {
    const bad = await chmod.execute({ path: "run.sh", mode: "rwx" }, toolContext({ cwd: dir }));
    assert.equal(bad.code, "invalid_args");
    assert.match(bad.output, /^Mode "rwx" is not valid/);
    assert.equal(await modeOf(file), 0o644);
    const missing = await chmod.execute({ path: "nope", mode: "755" }, toolContext({ cwd: dir }));
    assert.equal(missing.code, "not_found");
    assert.equal(missing.output, 'Cannot chmod "nope": no such file or directory');
  });
});

Deno.test("`parseMode()` follows chmod(1) for X, = and special bits", () => {
  assert.equal(parseMode("a+X", 0o644, false), 0o644);
  assert.equal(parseMode("a+X", 0o744, false), 0o755);
  assert.equal(parseMode("a+X", 0o644, true), 0o755);
  assert.equal(parseMode("o=", 0o777, false), 0o770);
  assert.equal(parseMode("u+s,+t", 0o755, false), 0o5755);
  assert.equal(parseMode("g-w+x", 0o664, false), 0o654);
  assert.equal(parseMode("0o600", 0o777, false), 0o600);
  assert.equal(typeof parseMode("u+q", 0o644, false), "string");
  assert.equal(typeof parseMode("8755", 0o644, false), "string");
});
