/**
 * End-to-end: a session's requests reuse one connection to the model server.
 * The next request used to go out before the last reply's connection was
 * back in the pool, so the second request of every session opened a new one
 * (3–8 ms on the turn's path, bench/NOTES.md).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMinoc } from "../support/cli.ts";
import { startServer, toolCall } from "../support/server.ts";

const call = toolCall;

Deno.test("run: every request of a session comes on the first one's connection", async () => {
  const cwd = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_conn_" }));
  try {
    await Deno.writeTextFile(join(cwd, "notes.md"), "one\n");
    await using server = await startServer({
      replies: [
        { text: call("read_file", { path: "notes.md" }) },
        { text: call("write_to_file", { path: "notes.md", content: "one\ntwo\n" }) },
        { text: call("list_files", { path: "." }) },
        { text: call("attempt_completion", { result: "Done." }) },
      ],
    });
    const r = await runMinoc(
      ["run", "add a line", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd },
    );
    assert.equal(r.code, 0, r.stderr);
    const chat = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
    assert.equal(chat.length, 4);
    const ports = chat.map((q) => q.remotePort);
    assert.ok(ports[0] !== undefined);
    assert.deepEqual(ports, chat.map(() => ports[0]), `client ports: ${ports.join(", ")}`);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
