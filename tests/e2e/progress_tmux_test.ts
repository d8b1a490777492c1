/**
 * End-to-end: the progress spinner and the Markdown display in a real
 * terminal (tmux), and no spinner output at all when stderr is not a
 * terminal. The spinner threshold is shortened with MINOC_PROGRESS_AFTER_MS.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { minocEnv, runMinoc } from "../support/cli.ts";
import { hasTmux } from "../support/tmux.ts";
import { startChat } from "../support/tmux_chat.ts";

const chatIn = (dir: string, baseUrl: string, env: Record<string, string>) =>
  startChat(dir, ["--base-url", baseUrl, "--model", "m"], { env });

Deno.test({
  name: "chat: a slow reply shows a spinner after the threshold; /progress off hides it",
  ignore: !hasTmux(),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "minoc_progress_" });
    await Deno.writeTextFile(join(dir, "keep.txt"), "x\n"); // not empty: no interview
    await using server = await startServer({
      replies: [{ text: "Slow answer.", delayMs: 3000 }, { text: "Fast enough.", delayMs: 2500 }],
    });
    const env = { ...minocEnv({ cwd: dir }), MINOC_PROGRESS_AFTER_MS: "300" };
    const t = await chatIn(dir, server.baseUrl, env);
    try {
      await t.type("hello");
      await t.send("Enter");
      await t.waitFor(/waiting for m · \d+ s/);
      const after = await t.waitFor(/Slow answer\.[\s\S]*›/);
      assert.doesNotMatch(after, /waiting for m/, "the spinner is cleared before the text");
      await t.type("/progress off");
      await t.send("Enter");
      await t.waitFor(/progress off/);
      await t.type("again");
      await t.send("Enter");
      const until = Date.now() + 15_000;
      let screen = "";
      while (!/Fast enough\./.test(screen) && Date.now() < until) {
        screen = await t.screen();
        assert.doesNotMatch(screen, /waiting for m/, "no spinner once progress is off");
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.match(screen, /Fast enough\./);
      await t.waitFor(/Fast enough\.[\s\S]*›\s*$/);
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "chat: the reply renders as Markdown while it streams in a colour terminal",
  ignore: !hasTmux(),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "minoc_markdown_" });
    await Deno.writeTextFile(join(dir, "keep.txt"), "x\n"); // not empty: no interview
    await using server = await startServer({
      replies: [{
        chunks: ["# Ti", "tle\n\nSome **bo", "ld** and `co", "de` here\n- item ", "one\n"],
        chunkDelayMs: 200,
      }],
    });
    const env: Record<string, string> = { ...minocEnv({ cwd: dir }), TERM: "xterm-256color" };
    delete env.NO_COLOR;
    const t = await chatIn(dir, server.baseUrl, env);
    try {
      await t.type("format please");
      await t.send("Enter");
      const screen = await t.waitFor(/item one[\s\S]*tokens[\s\S]*›\s*$/);
      assert.match(screen, /^Title$/m, "the heading without its hashes");
      assert.match(screen, /^Some bold and code here$/m, "emphasis and code without markers");
      assert.match(screen, /^• item one$/m);
      assert.doesNotMatch(screen, /\*\*|# Ti/);
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("run: no spinner output when stderr is not a terminal", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_progress_" });
  await Deno.writeTextFile(join(dir, "keep.txt"), "x\n"); // not empty: no interview
  await using server = await startServer({ replies: [{ text: "Late answer.", delayMs: 1500 }] });
  try {
    const r = await runMinoc(["run", "hi", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
      env: { MINOC_PROGRESS_AFTER_MS: "0" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Late answer\./);
    assert.doesNotMatch(r.stderr + r.stdout, /waiting for|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
