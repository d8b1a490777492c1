/**
 * End-to-end: a permissions.json with a bad rule keeps its valid rules in
 * force, and one that cannot be read makes calls ask even with `--yes`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";

const call = toolCall;

const AT = "2025-01-01T00:00:00.000Z";

async function project(rules: unknown): Promise<{ dir: string; file: string }> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_perm_" });
  const config = join(dir, ".home", ".minoc", "config");
  await Deno.mkdir(config, { recursive: true });
  const file = join(config, "permissions.json");
  if (rules === "directory") await Deno.mkdir(file);
  else await Deno.writeTextFile(file, JSON.stringify({ version: 1, rules }));
  return { dir, file };
}

Deno.test("run --yes still applies a deny rule when permissions.json also holds an invalid rule", async () => {
  const { dir, file } = await project([
    {
      id: "p-1",
      tool: "execute_command",
      pattern: "touch *",
      action: "deny",
      scope: "*",
      createdAt: AT,
    },
    {
      id: "p-2",
      tool: "execute_command",
      pattern: "ls *",
      action: "Allow",
      scope: "*",
      createdAt: AT,
    },
  ]);
  const before = await Deno.readTextFile(file);
  await using server = await startServer({
    replies: [
      { text: call("execute_command", { command: "touch denied.txt" }) },
      { text: call("attempt_completion", { result: "done" }) },
    ],
  });
  try {
    const r = await runMinoc(
      ["run", "touch", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await Deno.stat(join(dir, "denied.txt")).catch(() => null), null);
    assert.match(r.stderr, /Skipped rule 1 of ".*permissions\.json": field "rules\[1\]\.action"/);
    const second = JSON.stringify(server.requests.at(-1)?.body.messages.at(-1));
    assert.match(second, /p-1 denies/);
    assert.equal(await Deno.readTextFile(file), before, "the file is left as it was");

    const v = await runMinoc(["config", "validate"], { cwd: dir });
    assert.equal(v.code, 2);
    assert.match(v.stderr, /Skipped rule 1 of ".*permissions\.json": field "rules\[1\]\.action"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run --yes does not approve calls when permissions.json cannot be read", async () => {
  const { dir } = await project("directory");
  await using server = await startServer({
    replies: [
      { text: call("write_to_file", { path: "made.txt", content: "x\n" }) },
      { text: call("attempt_completion", { result: "done" }) },
    ],
  });
  try {
    const r = await runMinoc(
      ["run", "write", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await Deno.stat(join(dir, "made.txt")).catch(() => null), null);
    assert.match(r.stderr, /Cannot read ".*permissions\.json".*--yes does not approve them/);
    const last = JSON.stringify(server.requests.at(-1)?.body.messages.at(-1));
    assert.match(last, /which --yes does not give: a deny rule might cover this call/);
    const v = await runMinoc(["config", "validate"], { cwd: dir });
    assert.equal(v.code, 2);
    assert.match(v.stderr, /Cannot read ".*permissions\.json"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
