/**
 * End-to-end: the interactive chat in a real terminal (tmux) against the
 * scripted server: Allow once writes, Deny leaves the file and tells the
 * model, Ctrl+C cancels a slow reply, Ctrl+D quits.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { hasTmux } from "../support/tmux.ts";
import { startChat } from "../support/tmux_chat.ts";

const READ = {
  text: "Let me look.\n<tool_call>\n<read_file>\n<path>notes.md</path>\n</read_file>\n</tool_call>",
};
const WRITE = {
  text: "<tool_call>\n<write_to_file>\n<path>notes.md</path>\n<content>\nline one\nline two\n\n" +
    "</content>\n</write_to_file>\n</tool_call>",
};

const chatIn = (dir: string, baseUrl: string) =>
  startChat(dir, ["--base-url", baseUrl, "--model", "m"]);

async function project(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_chat_" });
  await Deno.writeTextFile(join(dir, "notes.md"), "line one\n");
  return dir;
}

Deno.test({
  name: "chat: Allow once writes the file; Ctrl+D quits",
  ignore: !hasTmux(),
  async fn() {
    const dir = await project();
    await using server = await startServer({
      replies: [READ, WRITE, { text: "Done, line added." }],
    });
    const t = await chatIn(dir, server.baseUrl);
    try {
      await t.type("add a line");
      await t.send("Enter");
      const screen = await t.waitFor(/Allow write_to_file\?/);
      assert.match(screen, /\+line two/, "the prompt shows the diff");
      assert.match(screen, /Allow once[\s\S]*Allow always[\s\S]*Deny[\s\S]*Deny with a reason/);
      await t.send("Enter");
      await t.waitFor(/Done, line added\.[\s\S]*›/);
      assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\nline two\n");
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "chat: Deny leaves the file untouched and the model receives the denial",
  ignore: !hasTmux(),
  async fn() {
    const dir = await project();
    await using server = await startServer({ replies: [READ, WRITE, { text: "Understood." }] });
    const t = await chatIn(dir, server.baseUrl);
    try {
      await t.type("add a line");
      await t.send("Enter");
      await t.waitFor(/Allow write_to_file\?/);
      await t.pick(/^Deny with a reason/);
      await t.waitFor(/Reason/);
      await t.type("not today");
      await t.send("Enter");
      await t.waitFor(/Understood\.[\s\S]*›/);
      assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\n");
      const last = server.requests.at(-1)!.body.messages.at(-1).content;
      assert.match(last, /denied/);
      assert.match(last, /not today/);
      await t.type("/exit");
      await t.send("Enter");
      await t.waitFor(/\[exit 0\]/);
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "chat: Ctrl+C cancels a slow reply and returns to the prompt; /help lists commands",
  ignore: !hasTmux(),
  async fn() {
    const dir = await project();
    const slow = { chunks: ["Thinking", " very", " slowly", " forever"], chunkDelayMs: 3000 };
    await using server = await startServer({ replies: [slow, { text: "Second answer." }] });
    const t = await chatIn(dir, server.baseUrl);
    try {
      await t.type("hello");
      await t.send("Enter");
      await t.waitFor(/Thinking/);
      await t.send("C-c");
      await t.waitFor(/Cancelled[\s\S]*›\s*$/m);
      await t.type("/help");
      await t.send("Enter");
      await t.waitFor(/\/exit[\s\S]*Ctrl\+C cancels/);
      await t.type("again");
      await t.send("Enter");
      // Wait for the prompt: a Ctrl+D sent before the line editor listens is lost.
      await t.waitFor(/Second answer\.[\s\S]*›\s*$/);
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "chat: Ctrl+C stops a running command and returns to the prompt",
  ignore: !hasTmux(),
  async fn() {
    const dir = await project();
    const sleep = {
      text: "<tool_call>\n<execute_command>\n<command>echo started; sleep 61.5</command>\n" +
        "</execute_command>\n</tool_call>",
    };
    await using server = await startServer({ replies: [sleep, { text: "After." }] });
    const t = await startChat(dir, ["--base-url", server.baseUrl, "--model", "m", "--yes"]);
    try {
      await t.type("wait a minute");
      await t.send("Enter");
      await t.waitFor(/started/);
      const before = Date.now();
      await t.send("C-c");
      await t.waitFor(/Cancelled[\s\S]*›\s*$/m);
      assert.ok(Date.now() - before < 15_000, "did not wait for the command to end");
      const ps = await new Deno.Command("pgrep", { args: ["-f", "sleep 61.5"] }).output();
      assert.equal(new TextDecoder().decode(ps.stdout).trim(), "", "no sleep left running");
      await t.type("next");
      await t.send("Enter");
      await t.waitFor(/After\./);
      assert.match(server.requests[1].body.messages.at(-2).content, /cancel/i);
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
