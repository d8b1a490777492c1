/**
 * `execute_command` and a process that escapes the command's process group
 * (`setsid`) while holding its stdout: the call still ends when the command's
 * own process ends, and Ctrl+C (the abort signal) still cancels it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { executeCommand } from "../../../core/tools/execute_command.ts";
import { readPid, toolContext } from "../../fixtures/proc/context.ts";

const UNIX = Deno.build.os !== "windows";
/** Starts a `sleep 120` in a session of its own that keeps stdout and stderr open. */
const ESCAPE = "setsid sh -c 'echo $$ > escaped.pid; exec sleep 120' &";

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_setsid_" }));
  try {
    await fn(dir);
  } finally {
    const pid = await readPid(join(dir, "escaped.pid"), 10_000).catch(() => 0);
    if (pid > 0) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await Deno.remove(dir, { recursive: true });
  }
}

/** Fails instead of hanging when `p` does not settle in a generous time (the escapee sleeps 120 s). */
async function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still blocked after 60 s`)), 60_000);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test({
  name: "execute_command() returns once the command ends when a setsid child holds its stdout",
  ignore: !UNIX,
  fn: () =>
    withTempDir(async (dir) => {
      const run = executeCommand.execute(
        { command: `${ESCAPE} echo started` },
        toolContext({ cwd: dir }),
      );
      const r = await within(run, "execute_command");
      assert.equal(r.ok, true, r.output);
      assert.match(r.output, /exited with code 0/);
      assert.match(r.output, /started/);
      assert.match(r.output, /session of its own still holds its output/);
    }),
});

Deno.test({
  name: "execute_command() is cancelled by the abort signal when a setsid child holds its stdout",
  ignore: !UNIX,
  fn: () =>
    withTempDir(async (dir) => {
      const abort = new AbortController();
      const ctx = toolContext({ cwd: dir, signal: abort.signal });
      ctx.onOutput = (text) => {
        if (text.includes("started")) abort.abort();
      };
      const run = executeCommand.execute({ command: `${ESCAPE} echo started; sleep 120` }, ctx);
      const r = await within(run, "the cancelled execute_command");
      assert.equal(r.code, "cancelled", r.output);
    }),
});
