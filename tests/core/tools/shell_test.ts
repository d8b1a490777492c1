import assert from "node:assert/strict";
import { join } from "node:path";
import {
  commandEnv,
  killTree,
  killTreesNow,
  onPath,
  pumpOutput,
  shellInvocation,
  spawnShell,
} from "../../../core/tools/shell.ts";
import { isDead, readPid } from "../../fixtures/proc/context.ts";

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_shell_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("`shellInvocation()` uses bash -c when bash is on the PATH", () => {
  assert.equal(onPath("bash"), true);
  assert.equal(onPath("surely-no-such-program-here"), false);
  assert.deepEqual(shellInvocation("echo hi"), { cmd: "bash", args: ["-c", "echo hi"] });
});

Deno.test("`commandEnv()` applies overrides and removals over the process environment", () => {
  Deno.env.set("MINOC_TEST_SHELL_A", "a");
  try {
    const env = commandEnv(new Map([["MINOC_TEST_SHELL_A", null], ["MINOC_TEST_SHELL_B", "b"]]));
    assert.equal("MINOC_TEST_SHELL_A" in env, false);
    assert.equal(env.MINOC_TEST_SHELL_B, "b");
    assert.equal(env.PATH, Deno.env.get("PATH"));
  } finally {
    Deno.env.delete("MINOC_TEST_SHELL_A");
  }
});

Deno.test("`spawnShell()` starts the command in a process group of its own", async () => {
  await withTempDir(async (dir) => {
    const child = spawnShell("ps -o pgid= -p $$", { cwd: dir, env: commandEnv(new Map()) });
    let text = "";
    await pumpOutput(child, (t) => text += t);
    await child.status;
    assert.equal(Number(text.trim()), child.pid);
  });
});

Deno.test("`killTree()` stops a child of a child and says false when nothing is left", async () => {
  await withTempDir(async (dir) => {
    const child = spawnShell("sleep 30 & echo $! > child.pid; wait", {
      cwd: dir,
      env: commandEnv(new Map()),
    });
    const pumped = pumpOutput(child, () => {});
    const grandchild = await readPid(join(dir, "child.pid"));
    assert.equal(await killTree(child.pid), true);
    await child.status;
    await pumped;
    assert.equal(isDead(grandchild), true, `grandchild ${grandchild} survived`);
    const done = spawnShell("exit 0", { cwd: dir, env: commandEnv(new Map()) });
    await Promise.all([done.status, pumpOutput(done, () => {})]);
    assert.equal(await killTree(done.pid), false);
  });
});

Deno.test("`killTreesNow()` stops several trees without awaiting", async () => {
  await withTempDir(async (dir) => {
    const env = commandEnv(new Map());
    const children = ["a", "b"].map((name) =>
      spawnShell(`sleep 30 & echo $! > ${name}.pid; wait`, { cwd: dir, env })
    );
    const pumped = children.map((c) => pumpOutput(c, () => {}));
    const grandchildren = [await readPid(join(dir, "a.pid")), await readPid(join(dir, "b.pid"))];
    killTreesNow(children.map((c) => c.pid));
    await Promise.all([...children.map((c) => c.status), ...pumped]);
    for (const pid of grandchildren) assert.equal(isDead(pid), true, `${pid} survived`);
  });
});
