/**
 * End-to-end: the chat with `--provider bridge` in a real terminal (tmux),
 * a file as the clipboard (MINOC_CLIPBOARD_FILE): the round trip with one
 * combined approval and undo, a typed answer ending in <<<EOF>>>, split
 * sending with a confirmation per part, and <<<CONTINUE>>> joining.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { minocCommandLine, minocEnv } from "../support/cli.ts";
import { makeTree } from "../support/tool_context.ts";
import { hasTmux, TmuxSession } from "../support/tmux.ts";

const MATH = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";

async function start(args: string[]): Promise<{ t: TmuxSession; dir: string; clip: string }> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_bridge_tmux_" }));
  await makeTree(dir, { "src/math.ts": MATH, "README.md": "# Calc\n\nAdds numbers.\n" });
  const clip = join(dir, ".clip", "clipboard.txt");
  const env = minocEnv({ cwd: dir, env: { MINOC_CLIPBOARD_FILE: clip } });
  const t = await TmuxSession.start(minocCommandLine(["--provider", "bridge", ...args]), {
    cwd: dir,
    env,
  });
  await t.waitFor(/Ctrl\+D or \/exit to quit[\s\S]*›/);
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
      await waitCount(t, /›/, 2);
      await t.type("/undo");
      await t.send("Enter");
      await t.waitFor(/Restored|Reverted|restored|reverted/);
      assert.equal(await Deno.readTextFile(join(dir, "src/math.ts")), MATH);
      assert.equal(await Deno.readTextFile(join(dir, "README.md")), "# Calc\n\nAdds numbers.\n");
      await t.send("C-d");
      await t.waitFor(/\[exit 0\]/);
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
