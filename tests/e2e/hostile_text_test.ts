/**
 * Text a server or a cloned repository chose reaches the terminal shown, never
 * obeyed: a 401 whose message holds terminal controls (the last line minoc
 * prints for an error), and a cloned project's mcp.json whose server name
 * holds them (`minoc mcp list`'s warning; its table's cells are escaped by
 * `textTable()`, tested on its own).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMinoc } from "../support/cli.ts";
import { startServer } from "../support/server.ts";
import { withTempDir } from "../support/tool_context.ts";

/** Terminal controls: set the title, clear the screen, move up, reverse the text's direction. */
const EVIL = "\x1b]0;pwned\x07\x1b[2J\x1b[1A\u202e";
// deno-lint-ignore no-control-regex
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/;

Deno.test("run: a server's error message with terminal controls is printed as escapes", async () => {
  await withTempDir(async (root) => {
    await using server = await startServer({
      replies: [{ status: 401, errorMessage: `bad key ${EVIL}` }],
    });
    const r = await runMinoc(
      ["run", "hi", "--base-url", server.baseUrl, "--model", "m", "--api-key", "k"],
      { cwd: root, home: join(root, "home") },
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /minoc: Authentication failed .*bad key \\x1b\]0;pwned\\x07\\x1b\[2J/);
    assert.ok(!CONTROLS.test(r.stdout + r.stderr), JSON.stringify(r.stderr));
  });
});

Deno.test("mcp list: a project's server name and fields with terminal controls are shown as escapes", async () => {
  await withTempDir(async (root) => {
    const project = join(root, "p");
    await Deno.mkdir(join(project, ".minoc", "config"), { recursive: true });
    const config = {
      mcpServers: {
        [`tools${EVIL}`]: { command: `npx${EVIL}`, args: ["-y", "x"], [`extra${EVIL}`]: 1 },
      },
    };
    await Deno.writeTextFile(
      join(project, ".minoc", "config", "mcp.json"),
      JSON.stringify(config),
    );
    const r = await runMinoc(["mcp", "list"], { cwd: project, home: join(root, "home") });
    assert.equal(r.code, 0, r.stderr);
    // An untrusted folder's servers are named in a warning, not started.
    assert.match(r.stderr, /not trusted \(tools\\x1b\]0;pwned\\x07/);
    assert.ok(!CONTROLS.test(r.stdout + r.stderr), JSON.stringify(r.stdout + r.stderr));
  });
});

Deno.test("skills validate: a cloned skill's name, description and warnings are shown as escapes", async () => {
  await withTempDir(async (root) => {
    const skills = join(root, "skills");
    for (const [dir, name] of [["a", `tidy${EVIL}`], ["b", "tidy"], ["c", "tidy"]]) {
      await Deno.mkdir(join(skills, dir), { recursive: true });
      const front = `---\nname: ${JSON.stringify(name)}\ndescription: ${
        JSON.stringify(`Tidies ${EVIL}`)
      }\n---\n`;
      await Deno.writeTextFile(join(skills, dir, "SKILL.md"), `${front}Body ${EVIL}\n`);
    }
    const r = await runMinoc(["skills", "validate", skills], {
      cwd: root,
      home: join(root, "home"),
    });
    assert.match(r.stdout + r.stderr, /\\x1b\]0;pwned\\x07/);
    assert.ok(!CONTROLS.test(r.stdout + r.stderr), JSON.stringify(r.stdout + r.stderr));
  });
});
