/**
 * End-to-end in a real terminal (tmux): the chat with nothing configured
 * connects to a scripted server on a "well-known" port (MINOC_DISCOVER_PORTS),
 * asks which model when there are several and saves the choice only when
 * told; with no server it offers the setup once, then opens the bridge.
 */
import { closedPort, portOf } from "../support/ports.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { minocEnv, runMinoc } from "../support/cli.ts";
import { hasTmux } from "../support/tmux.ts";
import { CHAT_READY, startChat } from "../support/tmux_chat.ts";
import { startServer } from "../support/server.ts";

/** A small project (an empty folder would start the new-project interview). */
async function tempDir(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_first_tmux_" }));
  await Deno.mkdir(join(dir, "src"));
  await Deno.writeTextFile(join(dir, "src", "main.ts"), 'console.log("hi");\n');
  return dir;
}

Deno.test({
  name: "chat connects by itself to the one chat model a local server offers",
  ignore: !hasTmux(),
  async fn() {
    const dir = await tempDir();
    await Deno.writeTextFile(join(dir, "README.md"), "# Demo\n");
    await using server = await startServer({
      models: ["text-embedding-3-small", "solo-chat"],
      replies: [{ text: "Hi, the local model here." }],
    });
    const env = minocEnv({
      cwd: dir,
      env: { MINOC_DISCOVER_PORTS: `${closedPort()},${portOf(server.baseUrl)}` },
    });
    const t = await startChat(dir, [], { env });
    try {
      const screen = await t.waitFor(CHAT_READY);
      assert.match(screen, /Found a server at http:\/\/127\.0\.0\.1:\d+\/v1: using "solo-chat"/);
      assert.match(screen, /minoc \S+ · solo-chat ·/);
      assert.doesNotMatch(screen, /Which one\?|Remember/);
      await t.type("hello");
      await t.send("Enter");
      await t.waitFor(/Hi, the local model here\./);
      assert.equal(
        server.requests.find((q) => q.path === "/v1/chat/completions")?.body.model,
        "solo-chat",
      );
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "chat asks which model when several are found and saves it only when told to",
  ignore: !hasTmux(),
  async fn() {
    const dir = await tempDir();
    await Deno.writeTextFile(join(dir, "README.md"), "# Demo\n");
    await using server = await startServer({
      models: ["alpha-chat", "beta-chat", "nomic-embed-text"],
      replies: [{ text: "Beta answering." }, { text: "Beta again, from settings." }],
    });
    const env = minocEnv({ cwd: dir, env: { MINOC_DISCOVER_PORTS: `${portOf(server.baseUrl)}` } });
    const settings = join(env.MINOC_HOME, "config", "settings.json");
    const t = await startChat(dir, [], { env, ready: false });
    try {
      const list = await t.waitFor(/Which one\?[\s\S]*beta-chat/);
      assert.doesNotMatch(list, /nomic-embed-text/, "embedding models are not offered");
      await t.pick(/^beta-chat/);
      await t.waitFor(/Remember this choice/);
      await t.send("y");
      await t.send("Enter");
      await t.waitFor(CHAT_READY);
      const saved = JSON.parse(await Deno.readTextFile(settings));
      assert.deepEqual(saved, { baseUrl: server.baseUrl, model: "beta-chat" });
      await t.type("hello");
      await t.send("Enter");
      await t.waitFor(/Beta answering\./);
      await t.quit();
    } finally {
      await t.kill();
    }
    try {
      // The second start uses the saved choice: no discovery, no question.
      const r = await runMinoc(["run", "again"], {
        cwd: dir,
        env: { MINOC_DISCOVER_PORTS: "none" },
      });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /Beta again, from settings\./);
      assert.doesNotMatch(r.stderr, /Found /);
      const chats = server.requests.filter((q) => q.path === "/v1/chat/completions");
      assert.deepEqual(chats.map((q) => q.body.model), ["beta-chat", "beta-chat"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "chat with no server offers the setup on the first start, then opens the bridge",
  ignore: !hasTmux(),
  async fn() {
    const dir = await tempDir();
    await Deno.writeTextFile(join(dir, "README.md"), "# Demo\n");
    const clip = join(dir, ".clip", "clipboard.txt");
    const port = closedPort();
    const env = minocEnv({
      cwd: dir,
      env: { MINOC_DISCOVER_PORTS: `${port}`, MINOC_CLIPBOARD_FILE: clip },
    });
    let t = await startChat(dir, ["--no-session"], { env, ready: false, width: 200 });
    try {
      await t.waitFor(/Set one up now \(minoc setup\)\?/);
      await t.send("n");
      await t.send("Enter");
      const screen = await t.waitFor(CHAT_READY);
      assert.match(
        screen,
        new RegExp(`No model server found on port ${port}: using the copy/paste bridge\\.`),
      );
      assert.match(screen, /paste it into any web chat, then paste its reply here/);
      assert.match(screen, /To connect a server instead: .*minoc setup/);
      await t.type("add a test");
      await t.send("Enter");
      await t.waitFor(/is on the clipboard/);
      assert.match(await Deno.readTextFile(clip), /# The user's request\nadd a test\n/);
    } finally {
      await t.kill();
    }
    try {
      // The offer is made once: the next start goes straight to the bridge.
      t = await startChat(dir, ["--no-session"], { env, width: 200 });
      const screen = await t.screen();
      assert.doesNotMatch(screen, /Set one up now/);
      assert.match(screen, /using the copy\/paste bridge/);
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "chat's first-start offer runs the setup and the chat then talks to the model it saved",
  ignore: !hasTmux(),
  async fn() {
    const dir = await tempDir();
    await using server = await startServer({
      models: ["set-up-model"],
      replies: [
        { text: "<tool_call>\n<read_file>\n<path>README.md</path>\n</read_file>\n</tool_call>" },
        { text: "Talking through the saved setup." },
      ],
    });
    const env = minocEnv({ cwd: dir, env: { MINOC_DISCOVER_PORTS: `${closedPort()}` } });
    const t = await startChat(dir, ["--no-session"], { env, ready: false, width: 200 });
    try {
      await t.waitFor(/Set one up now \(minoc setup\)\?/);
      await t.send("y");
      await t.send("Enter");
      await t.pick(/^Another OpenAI-compatible server/);
      await t.waitFor(/Base URL of the server/);
      await t.type(server.baseUrl);
      await t.send("Enter");
      await t.pick(/^No key/);
      await t.pick(/^set-up-model/);
      await t.waitFor(/Save to .*settings\.json\?/);
      await t.send("Enter");
      const screen = await t.waitFor(CHAT_READY);
      assert.match(screen, /Saved in .*settings\.json: "set-up-model"/);
      assert.match(screen, /minoc \S+ · set-up-model ·/);
      assert.doesNotMatch(screen, /copy\/paste bridge/);
      await t.type("hello");
      await t.send("Enter");
      await t.waitFor(/Talking through the saved setup\./);
      const saved = JSON.parse(
        await Deno.readTextFile(join(env.MINOC_HOME, "config", "settings.json")),
      );
      assert.deepEqual(saved, { baseUrl: server.baseUrl, model: "set-up-model" });
      await t.quit();
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
