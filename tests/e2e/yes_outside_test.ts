/**
 * End-to-end: `run --yes` does not let a model's file tools write outside the
 * working directory — not minoc's own program cache (code the next start
 * runs), not another folder, not through a symlink — where the sandbox would
 * refuse a command too. Inside the project the same write goes through.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";

const write = (path: string, content: string) => ({
  text: `<tool_call>\n<write_to_file>\n<path>${path}</path>\n<content>${content}</content>\n` +
    `</write_to_file>\n</tool_call>`,
});

Deno.test("run --yes refuses file writes outside the project, minoc's program cache included", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_yes_outside_" }));
  const home = join(root, "home");
  const project = join(root, "project");
  const cache = join(home, ".cache", "minoc");
  try {
    await Deno.mkdir(project, { recursive: true });
    await Deno.mkdir(join(root, "other"), { recursive: true });
    await Deno.symlink(join(root, "other"), join(project, "link"));
    const outside = [
      join(cache, "bundle-0000000000000000", "main.js"),
      join(cache, "landlock-probe.json"),
      join(root, "other", "x.txt"),
      "link/y.txt",
      "../other/z.txt",
    ];
    await using server = await startServer({
      replies: [...outside.map((p) => write(p, "planted")), write("inside.txt", "ok"), {
        text: "Done.",
      }],
    });
    const r = await runMinoc(
      ["run", "go", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: project, home, env: { MINOC_CACHE_DIR: cache } },
    );
    assert.equal(r.code, 0, r.stderr);
    for (let i = 0; i < outside.length; i++) {
      const told = JSON.stringify(server.requests[i + 1].body.messages.at(-1));
      assert.match(told, /which --yes does not give/, outside[i]);
    }
    await assert.rejects(Deno.stat(join(cache, "bundle-0000000000000000")), Deno.errors.NotFound);
    for (const name of ["x.txt", "y.txt", "z.txt"]) {
      await assert.rejects(Deno.stat(join(root, "other", name)), Deno.errors.NotFound, name);
    }
    const probe = await Deno.readTextFile(join(cache, "landlock-probe.json")).catch(() => "");
    assert.doesNotMatch(probe, /planted/);
    assert.equal((await Deno.readTextFile(join(project, "inside.txt"))).trim(), "ok");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("run --yes refuses file writes into .git/ and .minoc/ (git hooks, minoc's rules); .env goes through", async () => {
  const project = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_yes_state_" }));
  try {
    await Deno.mkdir(join(project, ".git", "hooks"), { recursive: true });
    const refused = [".git/hooks/pre-commit", ".minoc/config/permissions.json"];
    await using server = await startServer({
      replies: [...refused.map((p) => write(p, "planted")), write(".env", "A=1"), {
        text: "Done.",
      }],
    });
    const r = await runMinoc(
      ["run", "go", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: project },
    );
    assert.equal(r.code, 0, r.stderr);
    for (let i = 0; i < refused.length; i++) {
      const told = JSON.stringify(server.requests[i + 1].body.messages.at(-1));
      assert.match(told, /which --yes does not give/, refused[i]);
      await assert.rejects(Deno.stat(join(project, refused[i])), Deno.errors.NotFound, refused[i]);
    }
    assert.equal((await Deno.readTextFile(join(project, ".env"))).trim(), "A=1");
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});
