/**
 * End-to-end: the chat with `--provider bridge` in a real terminal (tmux),
 * a file as the clipboard (MINOC_CLIPBOARD_FILE): the round trip with one
 * combined approval and undo, a typed answer ending in <<<EOF>>>, split
 * sending with a confirmation per part, and <<<CONTINUE>>> joining.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { minocEnv } from "../support/cli.ts";
import { makeTree } from "../support/tool_context.ts";
import { hasTmux, type TmuxSession } from "../support/tmux.ts";
import { startChat } from "../support/tmux_chat.ts";
import { startServer } from "../support/server.ts";

const MATH = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";

async function start(
  args: string[],
  provider = ["--provider", "bridge"],
): Promise<{ t: TmuxSession; dir: string; clip: string }> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_bridge_tmux_" }));
  await makeTree(dir, { "src/math.ts": MATH, "README.md": "# Calc\n\nAdds numbers.\n" });
  const clip = join(dir, ".clip", "clipboard.txt");
  const env = minocEnv({ cwd: dir, env: { MINOC_CLIPBOARD_FILE: clip } });
  const t = await startChat(dir, [...provider, ...args], { env, width: 220 });
  return { t, dir, clip };
}

/** Waits until the screen shows `pattern` at least `n` times. */
async function waitCount(t: TmuxSession, pattern: RegExp, n: number): Promise<string> {
  const global = new RegExp(pattern.source, "g");
  return await t.waitFor({
    test: (s: string) => (s.match(global)?.length ?? 0) >= n,
    toString: () => `${n} × ${pattern}`,
  } as RegExp);
}

Deno.test({
  name: "bridge chat: prompt on the clipboard, answer read on Enter, one approval, undo",
  ignore: !hasTmux(),
  async fn() {
    const { t, dir, clip } = await start([]);
    try {
      await t.type("rename add to sum");
      await t.send("Enter");
      await t.waitFor(
        /is on the clipboard \(file .*clipboard\.txt\)[\s\S]*press Enter \(or type \/paste\)/,
      );
      const prompt = await Deno.readTextFile(clip);
      assert.match(prompt, /# Project \(browse mode\)/);
      assert.match(prompt, /# The user's request\nrename add to sum\n/);
      await Deno.writeTextFile(
        clip,
        "Here you go.\n<<<DIFF: src/math.ts>>>\n@@\n-export function add(a: number, b: number): number {\n" +
          "+export function sum(a: number, b: number): number {\n<<<END>>>\n" +
          "<<<DIFF: README.md>>>\n@@\n-Adds numbers.\n+Sums numbers.\n<<<END>>>\n",
      );
      await t.send("Enter");
      const ask = await t.waitFor(/Allow apply_edit_blocks\?/);
      assert.match(ask, /--- a\/.*src\/math\.ts[\s\S]*\+export function sum/);
      assert.match(ask, /--- a\/.*README\.md[\s\S]*\+Sums numbers\./);
      await t.send("Enter");
      await waitCount(t, /is on the clipboard/, 2);
      assert.match(
        await Deno.readTextFile(clip),
        /# Latest tool results\n\[apply_edit_blocks src\/math\.ts, README\.md\] Result:/,
      );
      assert.match(await Deno.readTextFile(join(dir, "src/math.ts")), /function sum/);
      await t.type("All renamed.");
      await t.send("Enter");
      await t.type("<<<EOF>>>");
      await t.send("Enter");
      await t.waitFor(/All renamed\.\n<<<EOF>>>\nAll renamed\.[\s\S]*›/);
      await t.type("/undo");
      await t.send("Enter");
      await t.waitFor(/Restored|Reverted|restored|reverted/);
      assert.equal(await Deno.readTextFile(join(dir, "src/math.ts")), MATH);
      assert.equal(await Deno.readTextFile(join(dir, "README.md")), "# Calc\n\nAdds numbers.\n");
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "bridge chat: split sending waits for each part, and <<<CONTINUE>>> parts are joined",
  ignore: !hasTmux(),
  async fn() {
    const { t, dir, clip } = await start(["--bridge-limit", "2500", "--yes"]);
    try {
      await t.type("create two files");
      await t.send("Enter");
      const first = await t.waitFor(/Press Enter when part 1\/(\d+) is sent/);
      const m = Number(/part 1\/(\d+) is sent/.exec(first)![1]);
      assert.ok(m >= 3, `${m} parts`);
      for (let k = 1; k <= m; k++) {
        const part = await Deno.readTextFile(clip);
        assert.match(part, new RegExp(`^Part ${k}/${m} of a message from minoc`));
        assert.ok(part.length <= 2500, `part ${k}: ${part.length} characters`);
        if (k < m) {
          await t.send("Enter");
          await t.waitFor(
            new RegExp(`Part ${k + 1}/${m} \\(\\d+ characters\\) is on the clipboard`),
          );
        }
      }
      assert.match(await Deno.readTextFile(clip), /this is the last part/);
      await t.waitFor(/read it from the clipboard/);
      await Deno.writeTextFile(
        clip,
        "<<<FILE: [NEW] one.txt>>>\nfirst\n<<<END>>>\n<<<CONTINUE>>>\ntwo.txt\n<<<END>>>\n",
      );
      await t.type("/paste");
      await t.send("Enter");
      await t.waitFor(/The answer continues \(still to come: two\.txt\)/);
      await waitCount(t, /read it from the clipboard/, 2);
      assert.match(
        await Deno.readTextFile(clip),
        /^Continue your previous answer[\s\S]*- two\.txt/,
      );
      await Deno.writeTextFile(clip, "<<<FILE: [NEW] two.txt>>>\nsecond\n<<<END>>>\n");
      await t.send("Enter");
      await t.waitFor(/Changed 2 files: one\.txt, two\.txt/);
      assert.equal(await Deno.readTextFile(join(dir, "one.txt")), "first\n");
      assert.equal(await Deno.readTextFile(join(dir, "two.txt")), "second\n");
      await waitCount(t, /Press Enter when part 1\/\d+ is sent/, 2);
      await t.send("C-c");
      await t.waitFor(/Cancelled[\s\S]*›/);
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "bridge chat: /provider switches, /paste explains itself, a typed answer ends with Ctrl+D",
  ignore: !hasTmux(),
  async fn() {
    const { t, dir, clip } = await start([]);
    try {
      await t.type("/provider");
      await t.send("Enter");
      await t.waitFor(/provider: bridge \(switch with \/provider bridge\|openai\)/);
      await t.type("/provider openai");
      await t.send("Enter");
      await t.waitFor(/No model server configured for provider "openai"/);
      await t.type("/paste");
      await t.send("Enter");
      await t.waitFor(/\/paste reads the chat's answer from the clipboard/);
      await t.type("what is this project?");
      await t.send("Enter");
      await t.waitFor(/read it from the clipboard/);
      assert.match(await Deno.readTextFile(clip), /what is this project\?/);
      await t.type("A calculator.");
      await t.send("Enter");
      await t.type("It adds.");
      await t.send("Enter");
      await t.send("C-d");
      await t.waitFor(/A calculator\.\nIt adds\.\n[\s\S]*A calculator\.\nIt adds\.[\s\S]*›/);
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "chat: /provider bridge moves a server session to copy/paste and /provider openai back",
  ignore: !hasTmux(),
  async fn() {
    await using server = await startServer({
      replies: [{ text: "From the server." }, { text: "Server again." }],
    });
    const { t, dir, clip } = await start([], ["--base-url", server.baseUrl, "--model", "m"]);
    try {
      await t.type("hi");
      await t.send("Enter");
      await t.waitFor(/From the server\./);
      await t.type("/provider bridge");
      await t.send("Enter");
      await t.waitFor(/provider: bridge; each request is copied/);
      await t.type("hello");
      await t.send("Enter");
      await t.waitFor(/read it from the clipboard/);
      const prompt = await Deno.readTextFile(clip);
      assert.match(prompt, /# Edit blocks[\s\S]*# Working through copy and paste/);
      assert.match(
        prompt,
        /## User:\nhi\n\n## You:\nFrom the server\.[\s\S]*# The user's request\nhello/,
      );
      await t.type("From the web chat.");
      await t.send("Enter");
      await t.type("<<<EOF>>>");
      await t.send("Enter");
      await t.waitFor(/From the web chat\.\n<<<EOF>>>\nFrom the web chat\.[\s\S]*›/);
      await t.type("/provider openai");
      await t.send("Enter");
      await t.waitFor(/provider: openai/);
      await t.type("and now?");
      await t.send("Enter");
      await t.waitFor(/Server again\./);
      const last = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
      assert.equal(last.at(-2)?.content, "From the web chat.\n");
      assert.doesNotMatch(last[0].content, /# Edit blocks/, "blocks are off again with openai");
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
