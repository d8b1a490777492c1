import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command } from "@commander-js/extra-typings";
import { configCommand, EXAMPLE_FILES, redactKey } from "../../cli/commands/config.ts";
import { CliError, EXIT, memoryIO } from "../../cli/io.ts";
import { parseConfigText } from "../../core/config/schema.ts";
import { parseSecurityConfig } from "../../core/permission/security/config.ts";

const EXAMPLE_DIR = fileURLToPath(new URL("../../.minoc.example/config/", import.meta.url));
const KEY = "sk-proj-0123456789abcdefWXYZ";

interface Tree {
  home: string;
  project: string;
}

async function withTree(fn: (t: Tree) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "minoc-cli-config-" });
  const t = { home: join(root, ".minoc"), project: join(root, "project") };
  await Deno.mkdir(t.project, { recursive: true });
  try {
    await fn(t);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Runs `config <args>` in-process; returns the IO with its output. */
async function run(t: Tree, args: string[], env: Record<string, string> = {}) {
  const io = memoryIO();
  const program = new Command().exitOverride().configureOutput({
    writeOut: (s) => io.out(s),
    writeErr: (s) => io.err(s),
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  program.addCommand(configCommand(io, { homeDir: t.home, cwd: t.project, env }));
  await program.parseAsync(["config", ...args], { from: "user" });
  return io;
}

async function write(path: string, text: string) {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

Deno.test("`config init` writes the example files when the home has none", async () => {
  await withTree(async (t) => {
    const io = await run(t, ["init"]);
    const dir = join(t.home, "config");
    for (const name of ["settings.json", "models.json", "security.json"]) {
      assert.equal(
        await Deno.readTextFile(join(dir, name)),
        await Deno.readTextFile(join(EXAMPLE_DIR, name)),
        `${name} is the example file`,
      );
      assert.match(io.stdout, new RegExp(`wrote +${join(dir, name).replaceAll(".", "\\.")}\n`));
    }
    assert.equal(io.exitCode, EXIT.ok);
    const check = await run(t, ["validate"], {});
    assert.equal(check.exitCode, EXIT.ok, check.stderr);
  });
});

Deno.test("`config init` skips and keeps files that already exist", async () => {
  await withTree(async (t) => {
    const mine = join(t.home, "config", "models.json");
    await write(mine, '{"mine": {}}');
    const before = (await Deno.stat(mine)).mtime?.getTime();
    const io = await run(t, ["init"]);
    assert.match(
      io.stdout,
      new RegExp(`skipped +${mine.replaceAll(".", "\\.")} \\(already exists\\)`),
    );
    assert.match(io.stdout, /wrote +\S+settings\.json/);
    assert.equal(await Deno.readTextFile(mine), '{"mine": {}}');
    assert.equal((await Deno.stat(mine)).mtime?.getTime(), before);
    const again = await run(t, ["init"]);
    assert.equal(again.stdout.match(/^skipped/gm)?.length, 3);
    assert.doesNotMatch(again.stdout, /^wrote/m);
  });
});

Deno.test("`config init --project` writes into the working directory's .minoc", async () => {
  await withTree(async (t) => {
    await run(t, ["init", "--project"]);
    const text = await Deno.readTextFile(join(t.project, ".minoc", "config", "settings.json"));
    assert.equal(text, EXAMPLE_FILES["settings.json"]);
    assert.equal(await Deno.stat(join(t.home, "config")).catch(() => null), null);
  });
});

Deno.test("`EXAMPLE_FILES` are valid configuration files", () => {
  assert.ok(parseConfigText(EXAMPLE_FILES["settings.json"], "settings.json", "settings").ok);
  assert.ok(parseConfigText(EXAMPLE_FILES["models.json"], "models.json", "models").ok);
  assert.ok(parseSecurityConfig(JSON.parse(EXAMPLE_FILES["security.json"]), "security.json").ok);
});

Deno.test("`config show` prints each value with its source and redacts the key", async () => {
  await withTree(async (t) => {
    const projectSettings = join(t.project, ".minoc", "config", "settings.json");
    await write(projectSettings, '{"maxTurns": 9, "retry": {"maxRetries": 1}}');
    const io = await run(t, ["show", "--model", "o4-mini"], { OPENAI_API_KEY: KEY });
    const row = (field: string) =>
      io.stdout.split("\n").find((l) => l.startsWith(`${field} `))?.split(/\s{2,}/);
    assert.deepEqual(row("apiKey"), ["apiKey", "sk-…WXYZ", "env OPENAI_API_KEY"]);
    assert.deepEqual(row("model"), ["model", "o4-mini", "flag"]);
    assert.deepEqual(row("maxTurns"), ["maxTurns", "9", projectSettings]);
    assert.deepEqual(row("retry.maxRetries"), ["retry.maxRetries", "1", projectSettings]);
    assert.deepEqual(row("retry.baseDelayMs"), ["retry.baseDelayMs", "1000", "default"]);
    assert.deepEqual(row("baseUrl"), ["baseUrl", "https://api.openai.com/v1", "default"]);
    assert.deepEqual(row("quirks.maxTokensField"), [
      "quirks.maxTokensField",
      "max_completion_tokens",
      "default",
    ]);
    assert.deepEqual(row("temperature"), ["temperature", "(not set)", "-"]);
    assert.ok(!io.stdout.includes(KEY), "the key never appears");
  });
});

Deno.test("`config show --json` prints settings and sources with the key redacted", async () => {
  await withTree(async (t) => {
    const io = await run(t, ["show", "--json"], { OPENAI_API_KEY: KEY, MINOC_MODEL: "gpt-4.1" });
    const shown = JSON.parse(io.stdout);
    assert.equal(shown.settings.apiKey, "sk-…WXYZ");
    assert.equal(shown.settings.params.model, "gpt-4.1");
    assert.equal(shown.sources.model, "env MINOC_MODEL");
    assert.ok(!io.stdout.includes(KEY));
  });
});

Deno.test("`config show` fails with exit code 2 when a file is broken", async () => {
  await withTree(async (t) => {
    const path = join(t.home, "config", "settings.json");
    await write(path, '{"progress": "no"}');
    await assert.rejects(run(t, ["show"], { OPENAI_API_KEY: KEY }), (e: unknown) => {
      assert.ok(e instanceof CliError);
      assert.equal(e.exitCode, EXIT.usage);
      assert.equal(
        e.message,
        `Cannot read config "${path}": field "progress" must be true or false (got "no")`,
      );
      return true;
    });
  });
});

Deno.test("`config validate` lists every problem and exits with 2 when files are broken", async () => {
  await withTree(async (t) => {
    const settings = join(t.project, ".minoc", "config", "settings.json");
    const models = join(t.home, "config", "models.json");
    const security = join(t.home, "config", "security.json");
    await write(settings, '{"temperature": 5, "maxTurn": 3}');
    await write(models, "{ nope }");
    await write(security, '{"blocks": []}');
    await write(join(t.home, "config", "settings.json"), "{}");
    const io = await run(t, ["validate"]);
    assert.equal(io.exitCode, EXIT.usage);
    const problems = io.stderr.trim().split("\n");
    assert.equal(problems.length, 5, io.stderr);
    assert.match(
      problems[0],
      /settings\.json": field "temperature" must be from 0 to 2 \(got 5\)$/,
    );
    assert.match(problems[1], /settings\.json": unknown field "maxTurn"/);
    assert.match(problems[2], /models\.json": invalid JSON at line 1, column 3: /);
    assert.ok(problems[3].startsWith(`Cannot read "${security}": `), problems[3]);
    assert.equal(problems[4], "3 configuration files have problems");
    assert.match(
      io.stdout,
      new RegExp(`^ok +${join(t.home, "config", "settings.json").replaceAll(".", "\\.")}$`, "m"),
    );
  });
});

Deno.test("`config validate` exits with 0 when every file is valid or absent", async () => {
  await withTree(async (t) => {
    await write(join(t.home, "config", "models.json"), '{"m": {"topK": 5}}');
    const io = await run(t, ["validate"]);
    assert.equal(io.exitCode, EXIT.ok);
    assert.equal(io.stderr, "");
    assert.equal(io.stdout.match(/^absent/gm)?.length, 6, "permissions.json is checked too");
    assert.equal(io.stdout.match(/^ok/gm)?.length, 1);
    assert.match(io.stdout, /All configuration files are valid\n$/);
  });
});

Deno.test("`redactKey()` keeps only the first three and last four characters", () => {
  assert.equal(redactKey(KEY), "sk-…WXYZ");
  assert.equal(redactKey(""), "(none)");
  assert.equal(redactKey("short-key"), "(hidden, 9 characters)");
});
