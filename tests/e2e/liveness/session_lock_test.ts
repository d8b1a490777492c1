/**
 * End-to-end: two processes continuing one session. The second is refused
 * with exit 3 while the first writes it; the lock goes with the first
 * process even when it is killed (-9), and the temp files such a kill leaves
 * are removed at the next start.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../../support/server.ts";
import { entry, minocEnv, RUN_FLAGS, runMinoc, sessionFiles } from "../../support/cli.ts";

async function waitFor(test: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function sessionDir(home: string): Promise<string> {
  const root = join(home, "history", "sessions");
  for await (const day of Deno.readDir(root)) return join(root, day.name);
  throw new Error("no session folder");
}

Deno.test("run --continue refuses (exit 3) a session another process writes, and takes it once that one is killed", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_lock_" }));
  await using server = await startServer({ replies: [{ text: "first answer" }] });
  const base = ["--base-url", server.baseUrl, "--model", "m"];
  const home = join(dir, ".home", ".minoc");
  let first: Deno.ChildProcess | undefined;
  try {
    const made = await runMinoc(["run", "one", ...base], { cwd: dir });
    assert.equal(made.code, 0, made.stderr);
    // The first --continue hangs on a reply that never comes while it holds the session.
    server.push({ text: "never sent", delayMs: 600_000 });
    first = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...RUN_FLAGS, entry(), "run", "two", "--continue", ...base],
      cwd: dir,
      env: minocEnv({ cwd: dir }),
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    await waitFor(() => server.requests.length >= 2, "the first --continue to ask the server");

    const second = await runMinoc(["run", "three", "--continue", ...base], { cwd: dir });
    assert.equal(second.code, 3, second.stderr);
    assert.match(second.stderr, /is in use by another minoc process \(pid \d+/);
    assert.doesNotMatch(second.stderr, /\n\s+at /, "no stack trace");

    first.kill("SIGKILL");
    await first.status;
    const day = await sessionDir(home);
    const [file] = [...Deno.readDirSync(day)].filter((e) => e.name.endsWith(".json"));
    const stale = join(day, `${file.name}.tmp-0badf00d`);
    await Deno.writeTextFile(stale, "{ half a file");

    server.push({ text: "third answer" });
    const third = await runMinoc(["run", "three", "--continue", ...base], { cwd: dir });
    assert.equal(third.code, 0, third.stderr);
    await assert.rejects(Deno.stat(stale), Deno.errors.NotFound, "the stale temp file is gone");
    const sessions = await sessionFiles(home);
    assert.equal(sessions.length, 1);
    const users = (sessions[0].messages as { role: string; content: string }[])
      .filter((m) => m.role === "user").map((m) => m.content);
    assert.deepEqual(users, ["one", "two", "three"], "every request is kept, in order");
    const left = [...Deno.readDirSync(day)].map((e) => e.name).filter((n) => !n.endsWith(".json"));
    assert.deepEqual(left, [], "no lock or temp file is left");
  } finally {
    try {
      first?.kill("SIGKILL");
      await first?.status;
    } catch {
      // already ended
    }
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
