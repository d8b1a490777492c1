/**
 * A cloned repository can make any file minoc reads a FIFO (opening one
 * waits for a writer forever) or a link to an endless device. None of them
 * may hold a session: each is refused as not a regular file, and the session
 * goes on.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMinoc } from "../support/cli.ts";
import { startServer } from "../support/server.ts";

async function fifo(path: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  const r = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.equal(r.code, 0, `mkfifo ${path}`);
}

Deno.test({
  name:
    "run: FIFOs and /dev/zero links as AGENTS.md, SKILL.md, mcp.json and .gitignore hold nothing up",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_hostile_files_" }));
    try {
      const project = join(root, "p");
      await Deno.mkdir(join(project, "src"), { recursive: true });
      await Deno.writeTextFile(join(project, "src", "a.ts"), "export {};\n");
      await fifo(join(project, "AGENTS.md"));
      await Deno.mkdir(join(project, ".minoc"), { recursive: true });
      await Deno.symlink("/dev/zero", join(project, ".minoc", "instructions.md"));
      await fifo(join(project, ".minoc", "skills", "x", "SKILL.md"));
      await fifo(join(project, ".minoc", "config", "mcp.json"));
      await fifo(join(project, "src", ".gitignore"));
      const list = "<tool_call>\n<list_files>\n<path>src</path>\n</list_files>\n</tool_call>";
      await using server = await startServer({ replies: [{ text: list }, { text: "Done." }] });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const r = await Promise.race([
        runMinoc(
          ["run", "list src", "--base-url", server.baseUrl, "--model", "m", "--yes"],
          { cwd: project, home: join(root, "home") },
        ),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("minoc was still running after 60 s")), 60_000);
        }),
      ]).finally(() => clearTimeout(timer));
      assert.equal(server.requests.length, 2, r.stderr);
      const result = String(server.requests[1].body.messages.at(-1).content);
      assert.match(result, /a\.ts/);
      assert.match(r.stderr, /mcp\.json/);
      assert.match(r.stderr, /named pipe|not a regular file/);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
