/**
 * End-to-end in a real terminal: when the sandbox refuses a write outside
 * the project, the chat offers "Run again without the sandbox?" even with
 * `--yes`; "Allow once" runs it unconfined, "Deny" leaves the file alone
 * and tells the model which path was refused. `--sandbox off` asks once
 * per session.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { minocEnv } from "../support/cli.ts";
import { hasTmux } from "../support/tmux.ts";
import { startChat } from "../support/tmux_chat.ts";
import { landlockAbi } from "../../core/sandbox/landlock.ts";

const landlock = Deno.build.os === "linux" && landlockAbi() > 0;

const command = (line: string) => ({
  text: `<tool_call>\n<execute_command>\n<command>${line}</command>\n</execute_command>\n` +
    "</tool_call>",
});

async function layout() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_sandbox_tmux_" }));
  const project = join(root, "project");
  await Deno.mkdir(project);
  await Deno.writeTextFile(join(project, "keep.txt"), "x\n"); // not empty: no interview
  const outside = join(root, "outside.txt");
  await Deno.writeTextFile(outside, "original\n");
  return { root, project, outside, env: minocEnv({ cwd: project, home: join(root, "home") }) };
}

Deno.test({
  name: "chat: a refused write offers a run without the sandbox; Allow once runs it, Deny does not",
  ignore: !hasTmux() || !landlock,
  async fn() {
    const { root, project, outside, env } = await layout();
    await using server = await startServer({
      replies: [
        command(`echo first > ${outside}`),
        { text: "First done." },
        command(`echo second > ${outside}`),
        { text: "Second done." },
      ],
    });
    const args = ["--base-url", server.baseUrl, "--model", "m", "--yes"];
    const t = await startChat(project, args, { env });
    try {
      await t.type("write it");
      await t.send("Enter");
      const asked = await t.waitFor(/Run again without the sandbox\?/);
      assert.match(asked, new RegExp(`refused writing to "${outside}"`));
      await t.pick(/Allow once/);
      await t.waitFor(/First done\.[\s\S]*›/);
      assert.equal(await Deno.readTextFile(outside), "first\n");
      assert.match(JSON.stringify(server.requests[1].body), /allowed running it once without/);

      await t.type("again");
      await t.send("Enter");
      await t.waitFor(/Run again without the sandbox\?[\s\S]*Run again without the sandbox\?/);
      await t.pick(/Deny/);
      await t.waitFor(/Second done\.[\s\S]*›/);
      assert.equal(await Deno.readTextFile(outside), "first\n");
      const told = JSON.stringify(server.requests[3].body.messages.at(-1));
      assert.match(told, new RegExp(`The sandbox refused writing to \\\\"${outside}`));
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "chat --sandbox off asks once per session, then commands run unconfined",
  ignore: !hasTmux() || !landlock,
  async fn() {
    const { root, project, outside, env } = await layout();
    await using server = await startServer({
      replies: [
        command(`echo one > ${outside}`),
        command(`echo two >> ${outside}`),
        { text: "Both done." },
      ],
    });
    const args = ["--base-url", server.baseUrl, "--model", "m", "--yes", "--sandbox", "off"];
    const t = await startChat(project, args, { env });
    try {
      await t.type("write twice");
      await t.send("Enter");
      await t.waitFor(/Run commands without the sandbox for the rest of this session\?/);
      await t.pick(/Allow once/);
      const screen = await t.waitFor(/Both done\.[\s\S]*›/);
      assert.equal(screen.match(/without the sandbox for the rest/g)?.length, 1, "asked once");
      assert.equal(await Deno.readTextFile(outside), "one\ntwo\n");
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(root, { recursive: true });
    }
  },
});
