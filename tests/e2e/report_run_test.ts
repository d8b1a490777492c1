/**
 * End-to-end: a real `minoc run` against the scripted server records each
 * reply's time to first token and the retries before it, and `minoc history report` over that real
 * history shows the session, its calls and the model's timings.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";

const call = toolCall;

Deno.test("run records firstTokenMs and retries on replies and history report shows that session's calls and timings", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_e2e_report_" });
  await using server = await startServer({
    replies: [
      { status: 429, retryAfterMs: 10 },
      { text: "Reading.\n" + call("read_file", { path: "notes.md" }) },
      { text: call("attempt_completion", { result: "Read it." }) },
    ],
  });
  try {
    await Deno.writeTextFile(join(dir, "notes.md"), "hello\n");
    const r = await runMinoc(
      ["run", "read notes.md", "--base-url", server.baseUrl, "--model", "m1", "--yes"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    const replies = (session.messages as Record<string, unknown>[]).filter((m) =>
      m.role === "assistant"
    );
    assert.equal(replies.length, 2);
    for (const m of replies) {
      assert.equal(typeof m.firstTokenMs, "number");
      assert.ok((m.firstTokenMs as number) <= (m.durationMs as number) + 1);
    }
    assert.equal(replies[0].retries, 1, "the first reply came after one retry");
    assert.equal(replies[1].retries, undefined);
    const out = await runMinoc(["history", "report", "-o", "r.html"], { cwd: dir });
    assert.equal(out.code, 0, out.stderr);
    const html = await Deno.readTextFile(join(dir, "r.html"));
    const data = JSON.parse(/id="report-data">(.*?)<\/script>/s.exec(html)![1]);
    assert.equal(data.totals.sessions, 1);
    assert.deepEqual(data.tools.map((t: { tool: string }) => t.tool).sort(), [
      "attempt_completion",
      "read_file",
    ]);
    const [model] = data.models;
    assert.equal(model.model, "m1");
    assert.equal(typeof model.ttftP50, "number");
    assert.equal(model.retries, 1);
    assert.equal(data.sessions[0].outcome, "completed");
    assert.equal(data.sessions[0].request, "read notes.md");
    const items = data.transcripts[data.sessions[0].id].items;
    assert.ok(
      items.some((i: { k: string; text?: string }) =>
        i.k === "result" && i.text?.includes("hello")
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
