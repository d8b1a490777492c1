import assert from "node:assert/strict";
import { join } from "node:path";
import { createProcessTable } from "../../../core/tools/process_table.ts";
import { startProcess } from "../../../core/tools/start_process.ts";
import { listProcesses } from "../../../core/tools/list_processes.ts";
import { readProcessOutput } from "../../../core/tools/read_process_output.ts";
import { killProcess } from "../../../core/tools/kill_process.ts";
import { isDead, readPid, toolContext, waitFor } from "../../fixtures/proc/context.ts";

async function withContext(
  fn: (ctx: ReturnType<typeof toolContext>, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_proctools_" });
  const processes = createProcessTable();
  try {
    await fn(toolContext({ cwd: dir, processes }), dir);
  } finally {
    await processes.killAll();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("`start_process` returns the id and pid when the command keeps running", async () => {
  await withContext(async (ctx) => {
    const r = await startProcess.execute({ command: "echo ready; sleep 30" }, ctx);
    assert.equal(r.ok, true);
    const [info] = ctx.processes.list();
    assert.match(r.output, new RegExp(`^Started process p1 \\(pid ${info.pid}, running\\)`));
    assert.match(r.output, /Output so far:\nready/);
    assert.equal(r.display, `started p1 (pid ${info.pid})`);
  });
});

Deno.test("`start_process` reports the exit code when the command fails at once", async () => {
  await withContext(async (ctx) => {
    const r = await startProcess.execute({ command: "echo broken >&2; exit 7" }, ctx);
    assert.equal(r.ok, false);
    assert.equal(r.code, "exit_code");
    assert.match(r.output, /exited with code 7/);
    assert.match(r.output, /broken/);
  });
});

Deno.test("`start_process` passes session environment overrides to the process", async () => {
  await withContext(async (ctx) => {
    ctx.env.set("MINOC_TEST_BG", "visible");
    await startProcess.execute({ command: 'echo "bg=$MINOC_TEST_BG"; sleep 30' }, ctx);
    await waitFor(() => ctx.processes.output("p1")?.includes("bg=") ?? false);
    assert.equal(ctx.processes.output("p1"), "bg=visible");
  });
});

Deno.test("`list_processes` shows each process with its state", async () => {
  await withContext(async (ctx) => {
    const empty = await listProcesses.execute({}, ctx);
    assert.match(empty.output, /No background processes/);
    await startProcess.execute({ command: "sleep 30" }, ctx);
    await startProcess.execute({ command: "exit 2" }, ctx);
    const r = await listProcesses.execute({}, ctx);
    const lines = r.output.split("\n");
    assert.match(lines[0], /^p1 \(pid \d+, running\): sleep 30 \(started /);
    assert.match(lines[1], /^p2 \(pid \d+, exited with code 2\): exit 2 \(started /);
    assert.equal(r.display, "2 processes, 1 running");
  });
});

Deno.test("`read_process_output` returns the last lines when tail is given", async () => {
  await withContext(async (ctx) => {
    await startProcess.execute({ command: "seq 1 30; sleep 30" }, ctx);
    await waitFor(() => ctx.processes.output("p1")?.endsWith("30") ?? false);
    const r = await readProcessOutput.execute({ id: "p1", tail: 2 }, ctx);
    assert.equal(r.ok, true);
    assert.match(
      r.output,
      /^Process p1 \(pid \d+, running\): seq 1 30; sleep 30\nOutput:\n29\n30$/,
    );
  });
});

Deno.test("`read_process_output` and `kill_process` list the known ids when the id is unknown", async () => {
  await withContext(async (ctx) => {
    const none = await readProcessOutput.execute({ id: "p1" }, ctx);
    assert.equal(none.code, "unknown_process");
    assert.match(none.output, /none were started/);
    await startProcess.execute({ command: "sleep 30" }, ctx);
    await startProcess.execute({ command: "sleep 30" }, ctx);
    const read = await readProcessOutput.execute({ id: "p7" }, ctx);
    assert.equal(read.output, 'No background process has id "p7": known ids are "p1", "p2"');
    const kill = await killProcess.execute({ id: "p7" }, ctx);
    assert.equal(kill.code, "unknown_process");
    assert.match(kill.output, /known ids are "p1", "p2"/);
  });
});

Deno.test("`kill_process` stops the process and its children when it runs", async () => {
  await withContext(async (ctx, dir) => {
    await startProcess.execute({ command: "sleep 30 & echo $! > child.pid; wait" }, ctx);
    const grandchild = await readPid(join(dir, "child.pid"));
    const r = await killProcess.execute({ id: "p1" }, ctx);
    assert.equal(r.ok, true);
    assert.match(r.output, /^Stopped process p1 \(pid \d+, exited with code \d+\)/);
    assert.equal(isDead(grandchild), true, `grandchild ${grandchild} survived`);
    const again = await killProcess.execute({ id: "p1" }, ctx);
    assert.match(again.output, /it was not running/);
  });
});
