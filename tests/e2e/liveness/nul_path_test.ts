/**
 * End-to-end: a NUL byte in a path (which every OS refuses) becomes a tool
 * error the model reads, for every file tool, in the preview and in the run;
 * the process goes on and the session file stays valid JSON.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../../support/server.ts";
import { runMinoc, sessionFiles } from "../../support/cli.ts";

const call = toolCall;

const BAD = "notes\0.md";
const GOOD = call("read_file", { path: "notes.md" });
const BAD_CALLS = [
  call("write_to_file", { path: BAD, content: "x\n" }),
  call("replace_in_file", {
    path: BAD,
    diff: "\n------- SEARCH\nline one\n=======\nline 1\n+++++++ REPLACE\n",
  }),
  call("delete_file", { path: BAD }),
  call("read_file", { path: BAD }),
  call("chmod", { path: BAD, mode: "644" }),
];
// A good call between bad ones, so three invalid calls in a row do not end the run.
const CALLS = [
  ...BAD_CALLS.flatMap((c) => [c, GOOD]),
  call("attempt_completion", { result: "done" }),
];

Deno.test("run: a file tool given a path with a NUL byte gets an error result, not a crash", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_nul_" });
  await Deno.writeTextFile(join(dir, "notes.md"), "line one\n");
  await using server = await startServer({ replies: CALLS.map((text) => ({ text })) });
  try {
    const r = await runMinoc(
      ["run", "break it", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.doesNotMatch(r.stderr, /TypeError|\n\s+at /, "no stack trace");
    const asks = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
    assert.equal(asks.length, CALLS.length, "every call got an answer and the run went on");
    for (
      const [i, tool] of ["write_to_file", "replace_in_file", "delete_file", "read_file", "chmod"]
        .entries()
    ) {
      const sent = asks[2 * i + 1].body.messages.at(-1).content as string;
      assert.match(sent, new RegExp(`^\\[${tool} [^\\]]*\\] Error`), sent);
      assert.match(sent, /NUL byte/, sent);
    }
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\n");
    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    assert.ok(Array.isArray(session.messages), "the session file is valid JSON");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
