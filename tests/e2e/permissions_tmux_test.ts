/**
 * End-to-end: "Allow always" in a real terminal stores a narrow rule for the
 * project; the next call it covers runs without a prompt, and a later `run`
 * (no terminal, no --yes) is allowed by the saved rule.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { minocEnv, runMinoc } from "../support/cli.ts";
import { hasTmux } from "../support/tmux.ts";
import { startChat } from "../support/tmux_chat.ts";

const echo = (word: string) => ({
  text: `<tool_call>\n<execute_command>\n<command>echo ${word}</command>\n</execute_command>\n` +
    "</tool_call>",
});

Deno.test({
  name: "chat: Allow always stores 'echo *' for this project and later calls run unasked",
  ignore: !hasTmux(),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "minoc_perm_" });
    await Deno.writeTextFile(join(dir, "keep.txt"), "x\n"); // not empty: no interview
    await using server = await startServer({
      replies: [echo("one"), echo("two"), { text: "Both ran." }, echo("three"), {
        text: "Third ran.",
      }],
    });
    const env = minocEnv({ cwd: dir });
    const t = await startChat(dir, ["--base-url", server.baseUrl, "--model", "m"], { env });
    try {
      await t.type("say hello twice");
      await t.send("Enter");
      await t.waitFor(/Allow execute_command\?/);
      await t.pick(/^Allow always/);
      const rules = await t.waitFor(/Rule to store/);
      assert.match(rules, /echo \*/);
      await t.send("Enter");
      await t.waitFor(/Both ran\.[\s\S]*›/);
      const screen = await t.screen();
      assert.equal(screen.match(/Allow execute_command\?/g)?.length, 1, "asked only once");
      assert.match(server.requests[1].body.messages.at(-1).content, /one/);
      assert.match(server.requests[2].body.messages.at(-1).content, /two/);
      await t.quit();

      const saved = JSON.parse(
        await Deno.readTextFile(join(env.MINOC_HOME, "config", "permissions.json")),
      );
      const text = JSON.stringify(saved);
      assert.match(text, /"echo \*"/);
      assert.match(text, new RegExp(JSON.stringify(await Deno.realPath(dir)).slice(1, -1)));

      const r = await runMinoc(["run", "again", "--base-url", server.baseUrl, "--model", "m"], {
        cwd: dir,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.match(server.requests[3 + 1].body.messages.at(-1).content, /three/);
      assert.doesNotMatch(server.requests[3 + 1].body.messages.at(-1).content, /denied/);
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
