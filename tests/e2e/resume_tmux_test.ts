/**
 * End-to-end: the chat's session pick list in a real terminal (tmux). In a
 * directory with earlier sessions the chat lists them (newest first, with
 * date, first request, messages and model) under "New session"; picking one
 * sends its conversation with the next request, picking "New session" does
 * not.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { minocEnv, runMinoc, sessionFiles } from "../support/cli.ts";
import { hasTmux } from "../support/tmux.ts";
import { CHAT_READY, startChat } from "../support/tmux_chat.ts";

interface Msg {
  role: string;
  content: string;
}

/** A project with two earlier sessions ("question one", then "question two"). */
async function projectWithSessions(baseUrl: string): Promise<{ dir: string; home: string }> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_pick_" }));
  await Deno.writeTextFile(join(dir, "keep.txt"), "x\n"); // not empty: no interview
  const home = join(dir, ".home");
  for (const q of ["question one", "question two"]) {
    const r = await runMinoc(["run", q, "--base-url", baseUrl, "--model", "m"], { cwd: dir, home });
    assert.equal(r.code, 0, r.stderr);
  }
  return { dir, home };
}

function lastSent(server: { requests: { body: { messages: Msg[] } }[] }): Msg[] {
  return server.requests.at(-1)!.body.messages.map((m) => ({ role: m.role, content: m.content }));
}

/** The chat, which first asks which earlier session to resume. */
const chatWithHistory = (dir: string, home: string, baseUrl: string) =>
  startChat(dir, ["--base-url", baseUrl, "--model", "m"], {
    env: minocEnv({ cwd: dir, home }),
    ready: false,
  });

Deno.test({
  name: "chat: picking an earlier session sends its conversation with the next request",
  ignore: !hasTmux(),
  async fn() {
    await using server = await startServer({
      replies: [{ text: "First answer." }, { text: "Second answer." }, { text: "Resumed answer." }],
    });
    const { dir, home } = await projectWithSessions(server.baseUrl);
    const t = await chatWithHistory(dir, home, server.baseUrl);
    try {
      const list = await t.waitFor(/Earlier sessions in this directory[\s\S]*question one/);
      assert.match(list, /New session[\s\S]*question two[\s\S]*question one/, "newest first");
      assert.match(list, /\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+question one\s+2 messages\s+m/);
      await t.pick(/question one/);
      await t.waitFor(/Resumed session \S+ · 2 messages[\s\S]*›/);
      await t.type("and then?");
      await t.send("Enter");
      await t.waitFor(/Resumed answer\.[\s\S]*›/);
      assert.deepEqual(lastSent(server).slice(1), [
        { role: "user", content: "question one" },
        { role: "assistant", content: "First answer." },
        { role: "user", content: "and then?" },
      ]);
      await t.quit();
      const files = await sessionFiles(join(home, ".minoc"));
      assert.equal(files.length, 2, "the chat continued a file instead of starting one");
      const grown = files.find((f) => (f.messages as Msg[])[0].content === "question one")!;
      assert.equal((grown.messages as Msg[]).at(-1)!.content, "Resumed answer.");
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "chat: picking New session starts a fresh conversation and a new file",
  ignore: !hasTmux(),
  async fn() {
    await using server = await startServer({
      replies: [{ text: "First answer." }, { text: "Second answer." }, { text: "Fresh answer." }],
    });
    const { dir, home } = await projectWithSessions(server.baseUrl);
    const t = await chatWithHistory(dir, home, server.baseUrl);
    try {
      await t.waitFor(/Earlier sessions in this directory[\s\S]*question one/);
      await t.send("Enter");
      await t.waitFor(CHAT_READY);
      await t.type("hello");
      await t.send("Enter");
      await t.waitFor(/Fresh answer\.[\s\S]*›/);
      assert.deepEqual(lastSent(server).slice(1), [{ role: "user", content: "hello" }]);
      await t.quit();
      assert.equal((await sessionFiles(join(home, ".minoc"))).length, 3);
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
