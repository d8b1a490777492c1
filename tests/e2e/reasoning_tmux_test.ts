/**
 * End-to-end in a real terminal (tmux): a reply's reasoning shows as one
 * folded line; `/reasoning` prints it in full; `/reasoning on` shows the
 * next reply's reasoning as it streams.
 */
import assert from "node:assert/strict";
import { startServer } from "../support/server.ts";
import { hasTmux } from "../support/tmux.ts";
import { startChat } from "../support/tmux_chat.ts";

const reply = (thought: string, answer: string) => ({
  reasoning: {
    field: "reasoning_content" as const,
    chunks: [thought.slice(0, 5), thought.slice(5)],
  },
  text: answer,
});

Deno.test({
  name: "chat: reasoning is folded into one line; /reasoning shows it; /reasoning on streams it",
  ignore: !hasTmux(),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "minoc_reasoning_" });
    await Deno.writeTextFile(`${dir}/notes.md`, "a project, not an empty folder\n");
    await using server = await startServer({
      replies: [
        reply("The sum of two and two is four.", "It is 4."),
        reply("Three and three make six.", "It is 6."),
      ],
    });
    const t = await startChat(dir, ["--base-url", server.baseUrl, "--model", "m"]);
    try {
      await t.type("2+2?");
      await t.send("Enter");
      let screen = await t.waitFor(/It is 4\.[\s\S]*›/);
      assert.match(screen, /∴ reasoning: 31 chars \(\/reasoning shows it\)/);
      assert.ok(!screen.includes("The sum of two"), screen);
      await t.type("/reasoning");
      await t.send("Enter");
      await t.waitFor(/The sum of two and two is four\./);
      await t.type("/reasoning on");
      await t.send("Enter");
      await t.waitFor(/reasoning is shown in full/);
      await t.type("3+3?");
      await t.send("Enter");
      screen = await t.waitFor(/It is 6\.[\s\S]*›/);
      assert.match(screen, /Three and three make six\./);
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
