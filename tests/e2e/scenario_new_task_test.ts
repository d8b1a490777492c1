/**
 * `minoc new --task "…"`: no questions; the answers come from the text, the
 * build runs like `minoc run`, in a folder it creates. A folder that already
 * holds a project is refused.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";

const WRITE = {
  text: "Plan:\n1. main.go: counts words from stdin\n<tool_call>\n<write_to_file>\n" +
    "<path>main.go</path>\n<content>\npackage main\n</content>\n</write_to_file>\n</tool_call>",
};
const DONE = {
  text: "<tool_call>\n<attempt_completion>\n<result>Started the Go word counter.</result>\n" +
    "</attempt_completion>\n</tool_call>",
};

Deno.test("new --task: the answers come from the text and the build runs in the new folder", async () => {
  const parent = await Deno.makeTempDir({ prefix: "minoc_new_task_" });
  await using server = await startServer({ replies: [WRITE, DONE] });
  try {
    const r = await runMinoc([
      "new",
      "wc",
      "--task",
      "a CLI word counter in Go, no dependencies",
      "--base-url",
      server.baseUrl,
      "--model",
      "m",
      "--yes",
    ], { cwd: parent });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await Deno.readTextFile(join(parent, "wc", "main.go")), "package main\n");
    const messages = server.requests[0].body.messages;
    assert.match(messages[0].content, /The working directory is empty: this is a new project\./);
    assert.match(messages[0].content, /Working directory: .*\/wc\n/);
    const brief = messages.at(-1).content as string;
    assert.match(brief, /\nPurpose: a CLI word counter in Go, no dependencies\n/);
    assert.match(brief, /\nLanguage: Go\n/);
    assert.match(brief, /\nInterface: command-line tool\n/);
    assert.match(brief, /\nDependencies: none \(standard library only\)\n/);
    assert.match(brief, /\nSuggested files \(adjust to the purpose\): go\.mod, main\.go/);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("new: a folder with a project in it is refused with exit 2", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_new_full_" });
  try {
    await Deno.writeTextFile(join(dir, "app.py"), "print(1)\n");
    const r = await runMinoc(
      ["new", "--task", "x", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"],
      { cwd: dir },
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is not empty: minoc new starts a project in an empty folder/);
    const asked = await runMinoc(["new", "fresh"], { cwd: dir });
    assert.equal(asked.code, 2);
    assert.match(asked.stderr, /pass --task "…" to give the answers as text/);
    assert.equal(await Deno.stat(join(dir, "fresh")).catch(() => null), null, "nothing created");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
