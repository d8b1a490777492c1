/**
 * End-to-end: step mode in a real terminal (tmux) against the scripted
 * server. The step shows the model's text, the call, each gate's verdict and
 * the diff; skip, edit (inline and in $EDITOR), run the rest and abort do
 * what they say, and /step on|off switches it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { minocEnv } from "../support/cli.ts";
import { hasTmux, type TmuxSession } from "../support/tmux.ts";
import { startChat } from "../support/tmux_chat.ts";

const call = toolCall;

const WRITE = (name: string, text: string) => ({
  text: `I will write ${name}.\n` + call("write_to_file", { path: name, content: `\n${text}\n` }),
});

/** The step question's items. */
const MENU = {
  run: /^Run$/,
  skip: /^Skip/,
  editor: /^Edit the parameters in/,
  inline: /^Edit the parameters here/,
  rest: /^Run the rest/,
  abort: /^Abort/,
};

async function choose(t: TmuxSession, item: keyof typeof MENU): Promise<void> {
  await t.pick(MENU[item]);
}

const chatIn = (dir: string, baseUrl: string, flags: string[], env: Record<string, string> = {}) =>
  startChat(dir, ["--base-url", baseUrl, "--model", "m", "--yes", ...flags], {
    env: minocEnv({ cwd: dir, env }),
  });

async function project(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_step_" }));
  await Deno.writeTextFile(join(dir, "keep.txt"), "x\n"); // not empty: no interview
  return dir;
}

const exists = (p: string) => Deno.stat(p).then(() => true, () => false);

Deno.test({
  name:
    "step: the step shows text, call, verdicts and diff; skip tells the model; run the rest runs on",
  ignore: !hasTmux(),
  async fn() {
    const dir = await project();
    const replies = [
      WRITE("a.txt", "alpha"),
      { text: "Skipped, fine." },
      WRITE("b.txt", "beta"),
      WRITE("c.txt", "gamma"),
      { text: "Both written." },
    ];
    await using server = await startServer({ replies });
    const t = await chatIn(dir, server.baseUrl, []);
    try {
      await t.type("/step on");
      await t.send("Enter");
      await t.waitFor(/step mode is on/);
      await t.type("write a");
      await t.send("Enter");
      const screen = await t.waitFor(/Step: write_to_file/);
      assert.match(screen, /│ I will write a\.txt\.\n\s*│ <tool_call>/, "the raw text");
      assert.match(screen, /Call: write_to_file\n\s+path: a\.txt/);
      assert.match(screen, /mode pass \(agent mode\)/);
      assert.match(screen, /approval pass \(--yes\)/);
      assert.match(screen, /\+alpha/, "the diff");
      await choose(t, "skip");
      await t.waitFor(/Skipped, fine\.[\s\S]*›/);
      assert.equal(await exists(join(dir, "a.txt")), false);
      const told = server.requests[1].body.messages.at(-1).content;
      assert.match(told, /Error \(skipped\):\nThe user skipped this call in step mode/);

      await t.type("write b and c");
      await t.send("Enter");
      await t.waitFor(/Step: write_to_file[\s\S]*b\.txt/);
      await choose(t, "rest");
      await t.waitFor(/Both written\.[\s\S]*›/);
      assert.equal(await Deno.readTextFile(join(dir, "b.txt")), "beta\n");
      assert.equal(await Deno.readTextFile(join(dir, "c.txt")), "gamma\n");
      assert.equal(
        (await t.screen()).match(/Step: write_to_file/g)?.length,
        2,
        "c.txt was not stepped",
      );
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "step: edit the parameters inline and in $EDITOR; the edited call is shown again, then runs",
  ignore: !hasTmux(),
  async fn() {
    const dir = await project();
    const editor = join(dir, ".edit.sh");
    await Deno.writeTextFile(editor, `#!/bin/sh\nsed -i 's/first draft/second draft/' "$1"\n`);
    await Deno.chmod(editor, 0o755);
    const replies = [
      { text: call("execute_command", { command: "echo one > out.txt" }) },
      WRITE("notes.md", "first draft"),
      { text: "Done." },
    ];
    await using server = await startServer({ replies });
    const t = await chatIn(dir, server.baseUrl, ["--step"], { EDITOR: editor });
    try {
      await t.type("go");
      await t.send("Enter");
      await t.waitFor(/Step: execute_command/);
      await choose(t, "inline");
      await t.waitFor(/\? command echo one > out\.txt/);
      for (let i = 0; i < "one > out.txt".length; i++) await t.send("BSpace");
      await t.type("two > out.txt");
      await t.send("Enter");
      await t.waitFor(/\? requires_approval/);
      await t.send("Enter");
      await t.waitFor(/\? timeout/);
      await t.send("Enter");
      await t.waitFor(/\$ echo two > out\.txt[\s\S]*Step: execute_command/);
      await choose(t, "run");
      await t.waitFor(/Step: write_to_file/);
      assert.equal(await Deno.readTextFile(join(dir, "out.txt")), "two\n");
      assert.match(server.requests[1].body.messages.at(-1).content, /The user edited this call/);

      await choose(t, "editor");
      await t.waitFor(/\+second draft[\s\S]*Step: write_to_file/);
      await choose(t, "run");
      await t.waitFor(/Done\.[\s\S]*›/);
      assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "second draft\n");
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "step: abort ends the task without running the call; the chat goes on",
  ignore: !hasTmux(),
  async fn() {
    const dir = await project();
    await using server = await startServer({
      replies: [WRITE("a.txt", "alpha"), { text: "Hello again." }],
    });
    const t = await chatIn(dir, server.baseUrl, ["--step"]);
    try {
      await t.type("write a");
      await t.send("Enter");
      await t.waitFor(/Step: write_to_file/);
      await choose(t, "abort");
      await t.waitFor(/Cancelled[\s\S]*›/);
      assert.equal(await exists(join(dir, "a.txt")), false);
      assert.equal(server.requests.length, 1, "no request after the abort");
      await t.type("/step off");
      await t.send("Enter");
      await t.waitFor(/step mode is off/);
      await t.type("hi");
      await t.send("Enter");
      await t.waitFor(/Hello again\.[\s\S]*›/);
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
