/**
 * End-to-end: with `--yes`, a scripted model runs commands that hide their
 * danger (interpreter one-liners, `tar --remove-files`, IFS word splitting,
 * git aliases, `${x@P}`, `find -fprint`, a background child) against a
 * throw-away HOME outside the project; the blocklist sees through some, the
 * sandbox holds the rest. Under the default sandbox nothing
 * outside the project changes, writes inside succeed, and the model is
 * told which path was refused. `--sandbox off` in `run` is the flag's own
 * confirmation, and commands then write where they like.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";
import { makeTree } from "../support/tool_context.ts";
import { landlockAbi } from "../../core/sandbox/landlock.ts";

const landlock = Deno.build.os === "linux" && landlockAbi() > 0;

const call = (tool: string, line: string) => ({
  text: `<tool_call>\n<${tool}>\n<command>${line}</command>\n</${tool}>\n</tool_call>`,
});

/** Every file under `root` with its text, sorted. */
async function tree(root: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(root, rel))) {
    const path = rel === "" ? e.name : `${rel}/${e.name}`;
    if (path === ".minoc") continue;
    out.push(e.isDirectory ? `${path}/` : `${path}: ${await Deno.readTextFile(join(root, path))}`);
    if (e.isDirectory) out.push(...await tree(root, path));
  }
  return out.sort();
}

async function layout() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_sandbox_e2e_" }));
  const project = join(root, "project");
  const home = join(root, "home");
  await makeTree(root, {
    "project/README.md": "project\n",
    "home/notes.txt": "precious\n",
    "home/docs/plan.md": "keep me\n",
    "outside.txt": "untouched\n",
  });
  return { root, project, home };
}

Deno.test({
  name: "run --yes changes nothing outside the project when the model runs destructive one-liners",
  ignore: !landlock,
  fn: async () => {
    const { root, project, home } = await layout();
    const homeBefore = await tree(home);
    const commands = [
      `python3 -c "import shutil; shutil.rmtree('${home}')"`,
      `node -e "require('fs').rmSync(process.env.HOME,{recursive:true})"`,
      `perl -e "system(q{rm -rf ~})"`,
      `tar --remove-files -cf x.tar ~`,
      `IFS=_; cmd=rm_-rf_${home}; $cmd`,
      `(echo child > ${root}/child.txt) & wait; echo inside > inside.txt`,
      `git -c alias.x='!rm -rf ${home}' x`,
      `x='$(rm -rf ${home})'; echo \${x@P}`,
      `find . -fprint ${home}/notes.txt`,
      `node -e "require('fs').writeFileSync(process.env.HOME + '/notes.txt', 'gone')"`,
    ];
    await using server = await startServer({
      replies: [
        ...commands.map((c) => call("execute_command", c)),
        call("start_process", `sleep 0.3; echo bg > ${root}/bg.txt; echo bg-in > bg-in.txt`),
        call("execute_command", "sleep 2; cat bg-in.txt"),
        { text: "Done." },
      ],
    });
    try {
      const r = await runMinoc(
        ["run", "clean up", "--base-url", server.baseUrl, "--model", "m", "--yes"],
        { cwd: project, home },
      );
      assert.equal(r.code, 0, r.stderr + r.stdout);
      assert.deepEqual(await tree(home), homeBefore);
      assert.equal(await Deno.readTextFile(join(root, "outside.txt")), "untouched\n");
      for (const f of ["child.txt", "bg.txt"]) {
        await assert.rejects(Deno.stat(join(root, f)), Deno.errors.NotFound);
      }
      assert.equal(await Deno.readTextFile(join(project, "inside.txt")), "inside\n");
      assert.equal(await Deno.readTextFile(join(project, "bg-in.txt")), "bg-in\n");
      const feedback = server.requests.map((q) => JSON.stringify(q.body.messages.at(-1)));
      // The blocklist sees through some of them; the sandbox holds the ones it does not see.
      const refused = new RegExp(`The sandbox refused writing to \\\\"${home}`);
      assert.match(feedback[commands.length], refused); // node's writeFileSync to ~/notes.txt
      assert.ok(feedback.filter((f) => refused.test(f)).length >= 2, feedback.join("\n"));
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "run --sandbox off runs commands unconfined, the flag being the confirmation",
  ignore: !landlock,
  fn: async () => {
    const { root, project, home } = await layout();
    await using server = await startServer({
      replies: [call("execute_command", `echo changed > ${root}/outside.txt`), { text: "Done." }],
    });
    try {
      const r = await runMinoc(
        ["run", "go", "--base-url", server.baseUrl, "--model", "m", "--yes", "--sandbox", "off"],
        { cwd: project, home },
      );
      assert.equal(r.code, 0, r.stderr + r.stdout);
      assert.match(r.stderr, /--sandbox off: commands can write anywhere/);
      assert.equal(await Deno.readTextFile(join(root, "outside.txt")), "changed\n");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "run --yes refuses commands where no sandbox works, unless settings opt out",
  fn: async () => {
    const { root, project, home } = await layout();
    await using server = await startServer({
      replies: [
        call("execute_command", "echo one > one.txt"),
        { text: "Done." },
        call("execute_command", "echo two > two.txt"),
        { text: "Done." },
      ],
    });
    const env = { MINOC_NO_CONFINE: "1" };
    try {
      const args = ["run", "go", "--base-url", server.baseUrl, "--model", "m", "--yes"];
      const r = await runMinoc(args, { cwd: project, home, env });
      assert.equal(r.code, 0, r.stderr + r.stdout);
      assert.match(
        r.stderr,
        /commands are not sandboxed \(MINOC_NO_CONFINE=1 turned it off\): each command asks first, even with --yes/,
      );
      await assert.rejects(Deno.stat(join(project, "one.txt")), Deno.errors.NotFound);
      assert.match(JSON.stringify(server.requests[1].body), /sandbox\.unconfined|unconfined/);
      await makeTree(home, {
        ".minoc/config/settings.json": JSON.stringify({ sandbox: { unconfined: "allow" } }),
      });
      const again = await runMinoc(args, { cwd: project, home, env });
      assert.equal(again.code, 0, again.stderr + again.stdout);
      assert.equal(await Deno.readTextFile(join(project, "two.txt")), "two\n");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "run --plan runs commands read-only: reading works, a write in the project fails",
  ignore: !landlock,
  fn: async () => {
    const { root, project, home } = await layout();
    await using server = await startServer({
      replies: [
        call("execute_command", "cat README.md"),
        call("execute_command", "echo x > made.txt"),
        { text: "1. Plan." },
      ],
    });
    try {
      const r = await runMinoc(
        ["run", "plan it", "--plan", "--base-url", server.baseUrl, "--model", "m", "--yes"],
        { cwd: project, home },
      );
      assert.equal(r.code, 0, r.stderr + r.stdout);
      assert.match(
        JSON.stringify(server.requests[1].body.messages.at(-1)),
        /exited with code 0[^"]*project/,
      );
      await assert.rejects(Deno.stat(join(project, "made.txt")), Deno.errors.NotFound);
      assert.match(JSON.stringify(server.requests[2].body.messages.at(-1)), /Permission denied/);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
