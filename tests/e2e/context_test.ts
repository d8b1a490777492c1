/**
 * End-to-end: context management in a real run. With a small context window
 * in settings.json, an older read of a file that was read again later is
 * shortened before the next request; the session file keeps it whole.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";
import { countMessages } from "../../core/agent/tokens.ts";

const call = toolCall;

const BIG = Array.from({ length: 1500 }, (_, i) => `big line ${i + 1}: lorem ipsum`).join("\n");

Deno.test("run: near the context window, an older tool output is shortened before the next request", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_ctx_" });
  await Deno.mkdir(join(dir, ".minoc", "config"), { recursive: true });
  await Deno.writeTextFile(
    join(dir, ".minoc", "config", "settings.json"),
    JSON.stringify({ contextWindow: 16_000 }),
  );
  await Deno.writeTextFile(join(dir, "big.txt"), BIG + "\n");
  await using server = await startServer({
    replies: [
      { text: call("read_file", { path: "big.txt" }) },
      { text: call("write_to_file", { path: "big.txt", content: "\nshort now\n" }) },
      { text: call("read_file", { path: "big.txt" }) },
      { text: "All done." },
    ],
  });
  try {
    const r = await runMinoc(
      ["run", "shrink big.txt", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests.length, 4, "no summary request was needed");
    const third = server.requests[2].body.messages;
    assert.ok(await countMessages(third) > 16_000 * 0.8, "the third request was over the limit");
    const last = server.requests[3].body.messages;
    const text = last.map((m: { content: string }) => m.content).join("\n");
    assert.ok(await countMessages(last) <= 16_000 * 0.6, "the fourth fits the target");
    assert.match(text, /\[read_file big\.txt\] Result:\n[\s\S]*big line 1: lorem ipsum/);
    assert.match(text, /lines of this output were removed to save context/);
    assert.doesNotMatch(text, /big line 700:/);
    assert.match(text, /shrink big\.txt/, "the instruction stays");
    assert.match(text.split("[read_file big.txt]").at(-1)!, /short now/, "the latest read stays");
    assert.match(r.stdout, /context compacted: [\d,]+ → [\d,]+ tokens \(1 tool outputs shortened/);
    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    const messages = session.messages as { role: string; content: string; event?: string }[];
    assert.ok(
      messages.some((m) => m.role === "tool_response" && m.content.includes("big line 700:")),
      "the session file keeps the full output",
    );
    assert.ok(messages.some((m) => m.event === "compacted"));
    assert.equal((session.metadata as { compactions: number }).compactions, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
