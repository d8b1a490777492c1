/**
 * End-to-end: `minoc run` with nothing configured looks for local servers on
 * the ports MINOC_DISCOVER_PORTS names (a scripted server stands in for a
 * "well-known" port), uses its chat model, and exits 2 when none answers.
 */
import { closedPort, portOf } from "../support/ports.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMinoc } from "../support/cli.ts";
import { startServer } from "../support/server.ts";

async function inTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_first_" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("run connects by itself to a local server's chat model when nothing is configured", async () => {
  await inTemp(async (cwd) => {
    await using server = await startServer({
      models: ["nomic-embed-text", "local-chat"],
      replies: [{ text: "Hello from the local server." }],
    });
    const port = portOf(server.baseUrl);
    const r = await runMinoc(["run", "say hello"], {
      cwd,
      env: { MINOC_DISCOVER_PORTS: `${closedPort()},${port}` },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Hello from the local server\./);
    const found = r.stderr.split("\n").filter((l) => l.startsWith("Found "));
    assert.equal(found.length, 1, r.stderr);
    assert.match(
      found[0],
      new RegExp(
        `^Found a server at http://127\\.0\\.0\\.1:${port}/v1: using "local-chat" of 2 models`,
      ),
    );
    const chat = server.requests.find((q) => q.path === "/v1/chat/completions");
    assert.equal(chat?.body.model, "local-chat");
  });
});

Deno.test("run with nothing configured and no server answering exits 2 and says what to do", async () => {
  await inTemp(async (cwd) => {
    const port = closedPort();
    const r = await runMinoc(["run", "hello"], { cwd, env: { MINOC_DISCOVER_PORTS: `${port}` } });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `No model configured, and no local server answered on port ${port}: run minoc setup`,
      ),
    );
    assert.match(r.stderr, /--base-url and --model \(or set OPENAI_API_KEY for OpenAI\)/);
    assert.doesNotMatch(r.stderr, /\bat .*\.ts:\d+/, "no stack trace");
    assert.doesNotMatch(r.stderr, /clipboard|paste/i, "run never waits for a paste");
  });
});

Deno.test("run does not look for servers when the environment names one", async () => {
  await inTemp(async (cwd) => {
    await using configured = await startServer({ replies: [{ text: "From the configured one." }] });
    await using other = await startServer({ models: ["other"] });
    const r = await runMinoc(["run", "hello"], {
      cwd,
      env: {
        OPENAI_BASE_URL: configured.baseUrl,
        MINOC_MODEL: "test-model",
        MINOC_DISCOVER_PORTS: `${portOf(other.baseUrl)}`,
      },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /From the configured one\./);
    assert.equal(other.requests.length, 0);
    assert.doesNotMatch(r.stderr, /^Found /m);
  });
});

Deno.test("run does not look for servers when the home settings.json names one", async () => {
  await inTemp(async (cwd) => {
    await using configured = await startServer({ replies: [{ text: "From settings." }] });
    await using other = await startServer({ models: ["other"] });
    const home = join(cwd, ".home");
    await Deno.mkdir(join(home, ".minoc", "config"), { recursive: true });
    await Deno.writeTextFile(
      join(home, ".minoc", "config", "settings.json"),
      JSON.stringify({ baseUrl: configured.baseUrl, model: "test-model" }),
    );
    const r = await runMinoc(["run", "hello"], {
      cwd,
      env: { MINOC_DISCOVER_PORTS: `${portOf(other.baseUrl)}` },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /From settings\./);
    assert.equal(other.requests.length, 0);
  });
});

Deno.test("run with a malformed MINOC_DISCOVER_PORTS exits 2 naming the value", async () => {
  await inTemp(async (cwd) => {
    const r = await runMinoc(["run", "hello"], { cwd, env: { MINOC_DISCOVER_PORTS: "ollama" } });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /Invalid MINOC_DISCOVER_PORTS "ollama": expected port numbers/);
  });
});

Deno.test("setup without a terminal exits 2 and writes nothing", async () => {
  await inTemp(async (cwd) => {
    const r = await runMinoc(["setup"], { cwd });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /minoc setup needs a terminal/);
    const settings = join(cwd, ".home", ".minoc", "config", "settings.json");
    assert.equal(await Deno.stat(settings).then(() => true, () => false), false);
  });
});

Deno.test("run prefers the model that settings.json names when a found server lists it", async () => {
  await inTemp(async (cwd) => {
    await using server = await startServer({
      models: ["alpha-chat", "beta-chat"],
      replies: [{ text: "Beta here." }],
    });
    const config = join(cwd, ".home", ".minoc", "config");
    await Deno.mkdir(config, { recursive: true });
    await Deno.writeTextFile(join(config, "settings.json"), '{ "model": "beta-chat" }');
    const r = await runMinoc(["run", "hello"], {
      cwd,
      env: { MINOC_DISCOVER_PORTS: `${portOf(server.baseUrl)}` },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /using "beta-chat" of 2 models/);
    const chat = server.requests.find((q) => q.path === "/v1/chat/completions");
    assert.equal(chat?.body.model, "beta-chat");
  });
});
