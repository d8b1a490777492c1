/**
 * End-to-end: `.env` files are not read into the conversation unless the
 * user allows it; `--yes` alone does not, a rule does.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";

const call = toolCall;

const SECRET = "DB_PASSWORD_VALUE_42";

async function project(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_env_" });
  await Deno.writeTextFile(join(dir, ".env"), `DB_PASS=${SECRET}\n`);
  await Deno.writeTextFile(join(dir, ".env.production"), `DB_PASS=${SECRET}\n`);
  await Deno.writeTextFile(join(dir, ".env.example"), "DB_PASS=changeme\n");
  await Deno.writeTextFile(join(dir, "app.ts"), "const pass = Deno.env.get('DB_PASS');\n");
  return dir;
}

const DONE = { text: call("attempt_completion", { result: "done" }) };

Deno.test("read_file, read_files, search_files and cat do not send .env secrets to the model with --yes", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [
      { text: call("read_file", { path: ".env" }) },
      {
        text: "<tool_call>\n<read_files>\n<path>app.ts</path>\n<path>.env.production</path>\n" +
          "</read_files>\n</tool_call>",
      },
      { text: call("search_files", { pattern: "*", content: "DB_PASS" }) },
      { text: call("execute_command", { command: "cat .env" }) },
      { text: call("read_file", { path: ".env.example" }) },
      DONE,
    ],
  });
  try {
    const r = await runMinoc(
      [
        ...["run", "look", "--base-url", server.baseUrl, "--model", "m", "--yes"],
        ...["--allow", "execute_command:cat *"],
      ],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
    assert.equal(reqs.length, 6);
    const results = reqs.slice(1).map((q) => JSON.stringify(q.body.messages.at(-1).content));
    assert.ok(!results.some((t) => t.includes(SECRET)), results.join("\n"));
    assert.match(results[0], /may hold secrets.*reading \.env files asks unless a rule allows it/);
    assert.match(results[1], /may hold secrets/);
    assert.match(results[2], /app\.ts/);
    assert.match(results[2], /\.env files? not searched/);
    assert.match(results[3], /Names the secret file/);
    assert.match(results[4], /changeme/, ".env.example is not secret");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("read_file reads .env when an allow rule names it", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [{ text: call("read_file", { path: ".env" }) }, DONE],
  });
  try {
    const r = await runMinoc(
      ["run", "look", "--base-url", server.baseUrl, "--model", "m", "--allow", "read_file:.env"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const last = JSON.stringify(server.requests.at(-1)?.body.messages.at(-1).content);
    assert.match(last, new RegExp(SECRET));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
