import assert from "node:assert/strict";
import { join } from "node:path";
import { createProcessTable } from "../../../core/tools/process_table.ts";
import { commandEnv } from "../../../core/tools/shell.ts";
import { isDead, readPid, waitFor } from "../../fixtures/proc/context.ts";

const FIXTURE = new URL("../../fixtures/proc/exit_cleanup.ts", import.meta.url).pathname;
const env = () => commandEnv(new Map());

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_procs_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function exited(table: ReturnType<typeof createProcessTable>, id: string): () => boolean {
  return () => table.list().find((p) => p.id === id)?.exitCode !== null;
}

Deno.test("`createProcessTable()` records combined output and the exit code when a process ends", async () => {
  await withTempDir(async (dir) => {
    const table = createProcessTable();
    try {
      const info = table.start("echo out; sleep 0.1; echo err >&2; exit 4", dir, env());
      assert.equal(info.id, "p1");
      assert.equal(info.exitCode, null);
      assert.ok(info.pid > 0);
      assert.ok(await waitFor(exited(table, info.id)));
      await waitFor(() => table.output(info.id)?.includes("err") ?? false);
      assert.equal(table.output(info.id), "out\nerr");
      assert.deepEqual(table.list().map((p) => [p.id, p.exitCode]), [["p1", 4]]);
    } finally {
      await table.killAll();
    }
  });
});

Deno.test("`createProcessTable()` returns the last lines when tail is given", async () => {
  await withTempDir(async (dir) => {
    const table = createProcessTable();
    try {
      const { id } = table.start("seq 1 50", dir, env());
      await waitFor(() => table.output(id)?.endsWith("50") ?? false);
      assert.equal(table.output(id, 3), "48\n49\n50");
      assert.equal(table.output(id)?.split("\n").length, 50);
      assert.equal(table.output("p9"), null);
    } finally {
      await table.killAll();
    }
  });
});

Deno.test("`createProcessTable()` keeps only the newest output when the buffer overflows", async () => {
  await withTempDir(async (dir) => {
    const table = createProcessTable({ maxBufferChars: 100 });
    try {
      const { id } = table.start("seq 1 1000", dir, env());
      await waitFor(exited(table, id));
      await waitFor(() => table.output(id)?.endsWith("1000") ?? false);
      const all = table.output(id) ?? "";
      const [note, ...kept] = all.split("\n");
      assert.match(note, /^\[\.\.\. \d+ earlier characters dropped \.\.\.\]$/);
      assert.ok(kept.join("\n").length <= 100);
      assert.equal(kept.at(-1), "1000");
      assert.equal(table.output(id, 2), "999\n1000");
    } finally {
      await table.killAll();
    }
  });
});

Deno.test("`createProcessTable()` passes the given environment and cwd to the process", async () => {
  await withTempDir(async (dir) => {
    const table = createProcessTable();
    try {
      const vars = commandEnv(new Map([["MINOC_TEST_VALUE", "seen"]]));
      const { id } = table.start('echo "$MINOC_TEST_VALUE"; pwd', dir, vars);
      await waitFor(exited(table, id));
      await waitFor(() => (table.output(id) ?? "").split("\n").length === 2);
      assert.equal(table.output(id), `seen\n${await Deno.realPath(dir)}`);
      assert.throws(() => table.start("echo hi", join(dir, "missing"), env()));
    } finally {
      await table.killAll();
    }
  });
});

Deno.test("`kill()` stops the whole tree and records the exit code when a process runs", async () => {
  await withTempDir(async (dir) => {
    const table = createProcessTable();
    try {
      const { id, pid } = table.start("sleep 30 & echo $! > child.pid; wait", dir, env());
      const grandchild = await readPid(join(dir, "child.pid"));
      assert.equal(await table.kill(id), true);
      assert.equal(isDead(grandchild), true, `grandchild ${grandchild} survived`);
      assert.equal(isDead(pid), true);
      assert.notEqual(table.list()[0].exitCode, null);
      assert.equal(await table.kill("p42"), false);
    } finally {
      await table.killAll();
    }
  });
});

Deno.test("`killAll()` stops every running process", async () => {
  await withTempDir(async (dir) => {
    const table = createProcessTable();
    const a = table.start("sleep 30", dir, env());
    const b = table.start("sleep 31 & echo $! > child.pid; wait", dir, env());
    const grandchild = await readPid(join(dir, "child.pid"));
    await table.killAll();
    for (const pid of [a.pid, b.pid, grandchild]) {
      assert.equal(isDead(pid), true, `${pid} survived`);
    }
    assert.ok(table.list().every((p) => p.exitCode !== null));
  });
});

async function runFixture(mode: string, signal?: Deno.Signal) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", FIXTURE, mode],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  const pids: number[] = JSON.parse(text.split("\n")[0]).pids;
  if (signal) child.kill(signal);
  const status = await child.status;
  await reader.cancel();
  return { pids, status };
}

Deno.test("`installExitCleanup()` leaves no process behind when the program ends normally", async () => {
  const { pids, status } = await runFixture("normal");
  assert.equal(status.code, 0);
  assert.equal(pids.length, 3);
  for (const pid of pids) assert.equal(isDead(pid), true, `${pid} survived`);
});

Deno.test("`installExitCleanup()` leaves no process behind when the program calls Deno.exit", async () => {
  const { pids, status } = await runFixture("exit");
  assert.equal(status.code, 0);
  for (const pid of pids) assert.equal(isDead(pid), true, `${pid} survived`);
});

Deno.test("`installExitCleanup()` stops the processes and lets SIGTERM end the program", async () => {
  const started = Date.now();
  const { pids, status } = await runFixture("wait", "SIGTERM");
  assert.ok(Date.now() - started < 15_000, "the program did not end on SIGTERM");
  assert.equal(status.signal, "SIGTERM");
  for (const pid of pids) assert.equal(isDead(pid), true, `${pid} survived`);
});
