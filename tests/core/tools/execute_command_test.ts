import assert from "node:assert/strict";
import { join } from "node:path";
import { executeCommand, LineCollector } from "../../../core/tools/execute_command.ts";
import { coerceArgs } from "../../../core/tools/dispatch.ts";
import { isDead, readPid, toolContext } from "../../fixtures/proc/context.ts";

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_exec_" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("`execute_command` returns stdout and exit code 0 when the command succeeds", async () => {
  await withTempDir(async (dir) => {
    const r = await executeCommand.execute(
      { command: "echo hello; pwd" },
      toolContext({ cwd: dir }),
    );
    assert.equal(r.ok, true);
    assert.match(r.output, /exited with code 0/);
    assert.match(r.output, new RegExp(`hello\n${dir}`));
    assert.match(r.display, /code 0 · 2 lines/);
  });
});

Deno.test("`execute_command` fails with the exit code and stderr when the command fails", async () => {
  await withTempDir(async (dir) => {
    const r = await executeCommand.execute(
      { command: "echo oops >&2; exit 3" },
      toolContext({ cwd: dir }),
    );
    assert.equal(r.ok, false);
    assert.equal(r.code, "exit_code");
    assert.match(r.output, /exited with code 3/);
    assert.match(r.output, /oops/);
  });
});

Deno.test("`execute_command` streams stdout and stderr live in arrival order", async () => {
  await withTempDir(async (dir) => {
    const chunks: { text: string; at: number }[] = [];
    const started = Date.now();
    const ctx = toolContext({
      cwd: dir,
      onOutput: (text) => chunks.push({ text, at: Date.now() }),
    });
    const command = "echo a; sleep 0.3; echo b >&2; sleep 0.3; echo c";
    const r = await executeCommand.execute({ command }, ctx);
    const finished = Date.now();
    assert.equal(chunks.map((c) => c.text).join(""), "a\nb\nc\n");
    assert.equal(chunks[0].text, "a\n");
    assert.ok(chunks[0].at - started < finished - started - 400, "first chunk came late");
    assert.match(r.output, /Output:\na\nb\nc$/);
  });
});

Deno.test("`execute_command` keeps head and tail and counts dropped lines when output is long", async () => {
  await withTempDir(async (dir) => {
    const r = await executeCommand.execute({ command: "seq 1 1000" }, toolContext({ cwd: dir }));
    assert.equal(r.ok, true);
    assert.match(r.output, /\n1\n2\n/);
    assert.match(r.output, /\n100\n\[\.\.\. 800 lines left out \.\.\.\]\n901\n/);
    assert.match(r.output, /\n1000$/);
    assert.doesNotMatch(r.output, /\n500\n/);
  });
});

Deno.test("`execute_command` kills a child of a child when the timeout expires", async () => {
  await withTempDir(async (dir) => {
    const started = Date.now();
    const r = await executeCommand.execute(
      { command: "sleep 30 & echo $! > child.pid; echo waiting; wait", timeout: 1 },
      toolContext({ cwd: dir }),
    );
    assert.ok(Date.now() - started < 10_000, "the timeout did not stop the command");
    assert.equal(r.ok, false);
    assert.equal(r.code, "timeout");
    assert.match(r.output, /timed out after 1 s/);
    assert.match(r.output, /waiting/);
    const grandchild = await readPid(join(dir, "child.pid"));
    assert.equal(isDead(grandchild), true, `grandchild ${grandchild} survived`);
  });
});

Deno.test("`execute_command` kills the process tree when the signal aborts", async () => {
  await withTempDir(async (dir) => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 500);
    const started = Date.now();
    const r = await executeCommand.execute(
      { command: "sleep 30 & echo $! > child.pid; wait" },
      toolContext({ cwd: dir, signal: abort.signal }),
    );
    assert.ok(Date.now() - started < 10_000, "the abort did not stop the command");
    assert.equal(r.code, "cancelled");
    assert.match(r.output, /cancelled/);
    const grandchild = await readPid(join(dir, "child.pid"));
    assert.equal(isDead(grandchild), true, `grandchild ${grandchild} survived`);
  });
});

Deno.test("`execute_command` does not start when the signal is already aborted", async () => {
  await withTempDir(async (dir) => {
    const abort = new AbortController();
    abort.abort();
    const r = await executeCommand.execute(
      { command: "touch ran" },
      toolContext({ cwd: dir, signal: abort.signal }),
    );
    assert.equal(r.code, "cancelled");
    assert.equal(await Deno.stat(join(dir, "ran")).then(() => true, () => false), false);
  });
});

Deno.test("`execute_command` stops background processes left holding its output", async () => {
  await withTempDir(async (dir) => {
    const started = Date.now();
    const r = await executeCommand.execute(
      { command: "sleep 30 & echo $! > child.pid; echo left" },
      toolContext({ cwd: dir }),
    );
    assert.ok(Date.now() - started < 10_000, "the command waited for its background child");
    assert.equal(r.ok, true);
    assert.match(r.output, /left/);
    assert.match(r.output, /use start_process/);
    assert.equal(isDead(await readPid(join(dir, "child.pid"))), true);
  });
});

Deno.test("`execute_command` stops background processes when they do not hold its output", async () => {
  await withTempDir(async (dir) => {
    const r = await executeCommand.execute(
      { command: "sleep 30 > /dev/null 2>&1 & echo $! > child.pid" },
      toolContext({ cwd: dir }),
    );
    assert.equal(r.ok, true);
    assert.doesNotMatch(r.output, /use start_process/);
    assert.equal(isDead(await readPid(join(dir, "child.pid"))), true);
  });
});

Deno.test("`execute_command` applies session overrides and removals to the environment", async () => {
  await withTempDir(async (dir) => {
    Deno.env.set("MINOC_TEST_REMOVED", "present");
    try {
      const env = new Map<string, string | null>([
        ["MINOC_TEST_ADDED", "from session"],
        ["MINOC_TEST_REMOVED", null],
      ]);
      const r = await executeCommand.execute(
        { command: 'echo "[$MINOC_TEST_ADDED] [${MINOC_TEST_REMOVED-unset}]"' },
        toolContext({ cwd: dir, env }),
      );
      assert.match(r.output, /\[from session\] \[unset\]/);
      assert.equal(Deno.env.get("MINOC_TEST_ADDED"), undefined);
    } finally {
      Deno.env.delete("MINOC_TEST_REMOVED");
    }
  });
});

Deno.test("`execute_command` fails with spawn_failed when the working directory is missing", async () => {
  await withTempDir(async (dir) => {
    const r = await executeCommand.execute(
      { command: "echo hi" },
      toolContext({ cwd: join(dir, "missing") }),
    );
    assert.equal(r.code, "spawn_failed");
    assert.match(r.output, /Cannot start the command in ".*missing"/);
  });
});

Deno.test("`execute_command` previews the command and cwd and validates its arguments", async () => {
  const ctx = toolContext({ cwd: "/somewhere" });
  const preview = await executeCommand.preview!({ command: "ls -la" }, ctx);
  assert.deepEqual(preview, { kind: "exec", command: "ls -la", cwd: "/somewhere" });
  const good = coerceArgs(executeCommand, {
    tool: "execute_command",
    params: { command: "ls", requires_approval: "true", timeout: "5" },
  });
  assert.deepEqual(good, {
    ok: true,
    args: { command: "ls", requires_approval: true, timeout: 5 },
  });
  const bad = coerceArgs(executeCommand, {
    tool: "execute_command",
    params: { command: "ls", timeout: "0" },
  });
  assert.equal(bad.ok, false);
});

Deno.test("`LineCollector` joins split chunks, keeps the last redraw and cuts long lines", () => {
  const lines = new LineCollector();
  lines.add("ab");
  lines.add("c\nprogress 10%\rprogress 100%\r\n");
  lines.add("x".repeat(2_500));
  assert.equal(
    lines.finish(),
    `abc\nprogress 100%\n${"x".repeat(2_000)} [... 500 characters cut]`,
  );
});
