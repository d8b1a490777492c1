/**
 * End-to-end: plan mode offers only reading tools and refuses a write at the
 * gate, even with --yes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";

const WRITE = {
  text: "<tool_call>\n<write_to_file>\n<path>plan.md</path>\n<content>\nx\n</content>\n" +
    "</write_to_file>\n</tool_call>",
};

Deno.test("run --plan refuses a write even with --yes and documents only reading tools", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_plan_" });
  await using server = await startServer({
    replies: [WRITE, { text: "1. Create plan.md with the outline." }],
  });
  try {
    const r = await runMinoc(
      ["run", "plan it", "--plan", "--yes", "--base-url", server.baseUrl, "--model", "m"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    await assert.rejects(Deno.stat(join(dir, "plan.md")), Deno.errors.NotFound);
    const system = server.requests[0].body.messages[0].content as string;
    assert.match(system, /plan mode/i);
    assert.match(system, /<read_file>/);
    assert.doesNotMatch(system, /<write_to_file>/);
    assert.doesNotMatch(system, /<execute_command>/);
    const feedback = server.requests[1].body.messages.at(-1).content as string;
    assert.match(feedback, /Error \(denied\)/);
    assert.match(feedback, /plan mode is read-only/);
    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    assert.equal(session.mode, "plan");
    const call = (session.messages as { role: string; verdicts?: { gate: string }[] }[])
      .find((m) => m.role === "tool_call")!;
    assert.equal(call.verdicts?.[0].gate, "mode");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
