/**
 * End-to-end in a real terminal (tmux): `minoc --continue` on a session that
 * another process is writing asks what to do; "Fork it" continues a copy in
 * a new session file, and the other process's file is left to it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../../support/server.ts";
import { entry, minocEnv, RUN_FLAGS, runMinoc, sessionFiles } from "../../support/cli.ts";
import { hasTmux } from "../../support/tmux.ts";
import { startChat } from "../../support/tmux_chat.ts";

interface Msg {
  role: string;
  content: string;
}

async function waitFor(test: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test({
  name: "chat --continue on a session in use offers a fork, which continues a copy in a new file",
  ignore: !hasTmux(),
  async fn() {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_busy_tmux_" }));
    await Deno.writeTextFile(join(dir, "keep.txt"), "x\n"); // not empty: no interview
    await using server = await startServer({ replies: [{ text: "First answer." }] });
    const base = ["--base-url", server.baseUrl, "--model", "m"];
    const env = minocEnv({ cwd: dir });
    let holder: Deno.ChildProcess | undefined;
    let t: Awaited<ReturnType<typeof startChat>> | undefined;
    try {
      assert.equal((await runMinoc(["run", "question one", ...base], { cwd: dir })).code, 0);
      server.push({ text: "never sent", delayMs: 600_000 });
      holder = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--quiet",
          ...RUN_FLAGS,
          entry(),
          "run",
          "question two",
          "--continue",
          ...base,
        ],
        cwd: dir,
        env,
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      await waitFor(() => server.requests.length >= 2, "the holder to ask the server");
      server.push({ text: "Forked answer." });

      t = await startChat(dir, ["--continue", ...base], { env, ready: false });
      await t.waitFor(/is in use by another minoc process \(pid \d+/);
      await t.waitFor(/Your choice \[f\/n\/q\]/);
      await t.type("f");
      await t.send("Enter");
      await t.waitFor(/Forked session \S+ into \S+ · \d+ messages[\s\S]*›/);
      await t.type("and then?");
      await t.send("Enter");
      await t.waitFor(/Forked answer\.[\s\S]*›/);
      const sent = (server.requests.at(-1)!.body.messages as Msg[]).map((m) => m.content);
      assert.deepEqual(sent.filter((c) => c.startsWith("question") || c === "and then?"), [
        "question one",
        "question two",
        "and then?",
      ]);
      await t.quit();
      const files = await sessionFiles(join(dir, ".home", ".minoc"));
      assert.equal(files.length, 2, "the fork is a file of its own");
      const fork = files.find((f) => (f.metadata as Record<string, unknown>).forkedFrom)!;
      assert.equal((fork.messages as Msg[]).at(-1)!.content, "Forked answer.");
    } finally {
      await t?.kill();
      try {
        holder?.kill("SIGKILL");
        await holder?.status;
      } catch {
        // already ended
      }
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
