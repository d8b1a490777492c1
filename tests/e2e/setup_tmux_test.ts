/**
 * End-to-end in a real terminal (tmux): `minoc setup` against a scripted
 * server that wants a key — the key typed without echo and kept in a 0600
 * file, the model picked from the server's list, the live check, the save
 * into settings.json keeping the other fields — and the next start using it.
 * Ctrl+C at any step leaves every file as it was.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { minocEnv } from "../support/cli.ts";
import { hasTmux, type TmuxSession } from "../support/tmux.ts";
import { startChat } from "../support/tmux_chat.ts";
import { startServer } from "../support/server.ts";

const KEY = "sk-wizard-7f3a91";
const PROBE_REPLY = "<tool_call>\n<read_file>\n<path>README.md</path>\n</read_file>\n</tool_call>";

async function project(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_setup_tmux_" }));
  await Deno.mkdir(join(dir, "src"));
  await Deno.writeTextFile(join(dir, "src", "main.ts"), 'console.log("hi");\n');
  return dir;
}

async function setup(dir: string, env: Record<string, string>): Promise<TmuxSession> {
  return await startChat(dir, ["setup"], { env, width: 200, ready: false });
}

Deno.test({
  name:
    "setup writes a valid settings.json with the key in a private file, and the next start uses it",
  ignore: !hasTmux(),
  async fn() {
    const dir = await project();
    await using server = await startServer({
      apiKey: KEY,
      models: ["bge-small-en", "wiz-model"],
      replies: [{ text: PROBE_REPLY }, { text: "Answer from the wizard model." }],
    });
    const env = minocEnv({ cwd: dir, env: { MINOC_DISCOVER_PORTS: "none" } });
    const config = join(env.MINOC_HOME, "config");
    await Deno.mkdir(config, { recursive: true });
    await Deno.writeTextFile(join(config, "settings.json"), '{\n  "maxTurns": 9\n}\n');
    const t = await setup(dir, env);
    try {
      await t.pick(/^Another OpenAI-compatible server/);
      await t.waitFor(/Base URL of the server/);
      await t.type(server.baseUrl);
      await t.send("Enter");
      await t.pick(/^Type it now/);
      await t.waitFor(/API key \(not shown\)/);
      await t.send("-l", KEY);
      await t.send("Enter");
      const list = await t.waitFor(/Which model\? \(2 on the server\)[\s\S]*❯ wiz-model/);
      assert.match(list, /bge-small-en \(not a chat model\)/);
      await t.pick(/^wiz-model/);
      await t.waitFor(/pass {2}tool call {2}parsed read_file/);
      await t.waitFor(/Save to .*settings\.json\?/);
      await t.send("Enter");
      const done = await t.waitFor(/\[exit 0\]/);
      assert.match(
        done,
        /Saved in .*settings\.json: "wiz-model" at http:\/\/127\.0\.0\.1:\d+\/v1\.\nThe key is in [\s\S]*custom\.key \(readable by you only\)/,
      );
      assert.ok(!done.includes(KEY), "the key never shows on screen");
    } finally {
      await t.kill();
    }
    const saved = JSON.parse(await Deno.readTextFile(join(config, "settings.json")));
    assert.deepEqual(saved, {
      maxTurns: 9,
      baseUrl: server.baseUrl,
      model: "wiz-model",
      apiKeyFile: "keys/custom.key",
    });
    const keyPath = join(config, "keys", "custom.key");
    assert.equal(await Deno.readTextFile(keyPath), KEY + "\n");
    if (Deno.build.os !== "windows") assert.equal((await Deno.stat(keyPath)).mode! & 0o777, 0o600);
    const chat = await startChat(dir, ["--no-session"], { env });
    try {
      await chat.type("hello");
      await chat.send("Enter");
      await chat.waitFor(/Answer from the wizard model\./);
      const last = server.requests.filter((q) => q.path === "/v1/chat/completions").at(-1);
      assert.equal(last?.body.model, "wiz-model");
      assert.equal(last?.headers.authorization, `Bearer ${KEY}`);
      await chat.quit();
    } finally {
      await chat.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "setup cancelled with Ctrl+C at the key leaves every file as it was (exit 130)",
  ignore: !hasTmux(),
  async fn() {
    const dir = await project();
    const env = minocEnv({ cwd: dir, env: { MINOC_DISCOVER_PORTS: "none" } });
    const config = join(env.MINOC_HOME, "config");
    await Deno.mkdir(config, { recursive: true });
    const before = '{"model":"kept",  "maxTurns": 3}';
    await Deno.writeTextFile(join(config, "settings.json"), before);
    const t = await setup(dir, env);
    try {
      await t.pick(/^OpenAI/);
      await t.pick(/^Type it now/);
      await t.waitFor(/API key \(not shown\)/);
      await t.send("-l", "sk-half");
      await t.send("C-c");
      const screen = await t.waitFor(/\[exit 130\]/);
      assert.match(screen, /Setup cancelled: nothing was changed\./);
    } finally {
      await t.kill();
    }
    try {
      assert.equal(await Deno.readTextFile(join(config, "settings.json")), before);
      assert.deepEqual(
        (await Array.fromAsync(Deno.readDir(config))).map((e) => e.name),
        ["settings.json"],
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "setup refuses to start while settings.json is broken, and leaves it untouched",
  ignore: !hasTmux(),
  async fn() {
    const dir = await project();
    const env = minocEnv({ cwd: dir });
    const config = join(env.MINOC_HOME, "config");
    await Deno.mkdir(config, { recursive: true });
    const broken = '{ "model": "m", }';
    await Deno.writeTextFile(join(config, "settings.json"), broken);
    const t = await setup(dir, env);
    try {
      const screen = await t.waitFor(/\[exit 2\]/);
      assert.match(screen, /Cannot read config ".*settings\.json": invalid JSON/);
      assert.match(screen, /Fix the file first/);
      assert.equal(await Deno.readTextFile(join(config, "settings.json")), broken);
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
