/**
 * End-to-end: a reply far larger than any real one (3 MB) is cut at
 * `MAX_REPLY_CHARS`: the stream is stopped, the kept text ends with a notice
 * the user and the model both see, and the session file stays small.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../../support/server.ts";
import { runMinoc, sessionFiles } from "../../support/cli.ts";
import { MAX_REPLY_CHARS } from "../../../core/llm/reply_cap.ts";

Deno.test("run: a 3 MB reply is cut at MAX_REPLY_CHARS with a notice, and the session file stays small", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_huge_" }));
  const chunk = "word ".repeat(20_000); // 100 KB
  await using server = await startServer({
    replies: [{ chunks: Array.from({ length: 30 }, () => chunk) }],
  });
  try {
    const r = await runMinoc(["run", "hi", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /this reply was cut at 1000000 characters/);
    const home = join(dir, ".home", ".minoc");
    const [session] = await sessionFiles(home);
    const replies = (session.messages as { role: string; content: string }[])
      .filter((m) => m.role === "assistant");
    assert.equal(replies.length, 1);
    assert.ok(replies[0].content.length < MAX_REPLY_CHARS + 500, `${replies[0].content.length}`);
    assert.match(replies[0].content, /this reply was cut at/);
    let bytes = 0;
    for await (const f of Deno.readDir(join(home, "history", "sessions"))) {
      for await (const s of Deno.readDir(join(home, "history", "sessions", f.name))) {
        bytes += (await Deno.stat(join(home, "history", "sessions", f.name, s.name))).size;
      }
    }
    assert.ok(bytes < 2 * MAX_REPLY_CHARS, `session files hold ${bytes} bytes`);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
