/**
 * End-to-end: a full disk (a 1 MB tmpfs holding the project and the `.minoc`
 * home) in the middle of a run. The write that does not fit is a tool error,
 * the session file that cannot grow says so once and keeps its whole
 * messages (valid JSON), and the run goes on to its end. Needs root to
 * mount the tmpfs; skipped where that is not allowed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../../support/server.ts";
import { runMinoc } from "../../support/cli.ts";

function canMount(): boolean {
  if (Deno.build.os !== "linux") return false;
  const dir = Deno.makeTempDirSync({ prefix: "minoc_mount_probe_" });
  try {
    const r = new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    if (!r.success) return false;
    new Deno.Command("umount", { args: [dir] }).outputSync();
    return true;
  } catch {
    return false;
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

const call = toolCall;

Deno.test({
  name: "run: a full disk makes a tool error and one clear warning; the session file stays valid",
  ignore: !canMount(),
  fn: async () => {
    const disk = await Deno.makeTempDir({ prefix: "minoc_full_" });
    const mounted = await new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", "size=1m", "tmpfs", disk],
    }).output();
    assert.ok(mounted.success);
    // 700 KB twice: the reply fits in the session file once, the file write does not fit.
    const big = "word ".repeat(140_000);
    await using server = await startServer({
      replies: [
        { text: call("write_to_file", { path: "big.txt", content: big }) },
        { text: call("attempt_completion", { result: "Stopped: the disk is full." }) },
      ],
    });
    try {
      const cwd = join(disk, "project");
      await Deno.mkdir(cwd);
      const r = await runMinoc(
        ["run", "write a big file", "--base-url", server.baseUrl, "--model", "m", "--yes"],
        { cwd },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /unexpected error|\n\s+at /, "no stack trace");
      const asks = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
      const told = asks[1].body.messages.at(-1).content as string;
      assert.match(told, /^\[write_to_file big\.txt\] Error/, told);
      assert.match(told, /No space left on device/, told);
      const warnings = r.stderr.match(/Cannot write the session file/g) ?? [];
      assert.ok(warnings.length <= 1, r.stderr);
      const root = join(cwd, ".home", ".minoc", "history", "sessions");
      for await (const day of Deno.readDir(root)) {
        for await (const f of Deno.readDir(join(root, day.name))) {
          if (!f.name.endsWith(".json")) continue;
          const text = await Deno.readTextFile(join(root, day.name, f.name));
          const session = JSON.parse(text);
          assert.equal(session.messages[0].content, "write a big file");
        }
      }
    } finally {
      await server.close();
      await new Deno.Command("umount", { args: [disk] }).output();
      await Deno.remove(disk, { recursive: true });
    }
  },
});
