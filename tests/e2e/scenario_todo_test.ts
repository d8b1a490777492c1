/**
 * Scenario: add an item to docs/TODO.md under the right heading, in the
 * document's own form (a `- [ ]` task), leaving the rest as it was.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";

const TODO = `# TODO

## Now
- [ ] Fix the login redirect
- [x] Update the README

## Later
- [ ] Dark mode
- [ ] Export to CSV

## Done
- [x] Set up CI
`;

const call = toolCall;

const REPLIES = [
  call("search_files", { pattern: "TODO.md" }),
  call("read_file", { path: "docs/TODO.md" }),
  call("edit_file", {
    path: "docs/TODO.md",
    old: "- [ ] Export to CSV",
    new: "- [ ] Export to CSV\n- [ ] Rate-limit the API",
  }),
  call("attempt_completion", { result: 'Added "Rate-limit the API" under Later.' }),
].map((text) => ({ text }));

/** Heading → its list items, in order. */
function sections(markdown: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current = "";
  for (const line of markdown.split("\n")) {
    if (line.startsWith("## ")) out.set(current = line.slice(3), []);
    else if (line.startsWith("- ")) out.get(current)?.push(line);
  }
  return out;
}

Deno.test("scenario: a TODO item lands under its heading as a '- [ ]' task and nothing else moves", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_todo_" });
  await Deno.mkdir(join(dir, "docs"));
  await Deno.writeTextFile(join(dir, "docs", "TODO.md"), TODO);
  await using server = await startServer({ replies: REPLIES });
  try {
    const r = await runMinoc(
      [
        "run",
        "add 'rate-limit the API' to the later items in docs/TODO.md",
        "--base-url",
        server.baseUrl,
        "--model",
        "m",
        "--yes",
      ],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const system = server.requests[0].body.messages[0].content as string;
    assert.match(system, /under the right heading, as the same kind of item \("- \[ \]" task/);

    const after = await Deno.readTextFile(join(dir, "docs", "TODO.md"));
    const s = sections(after);
    assert.deepEqual(s.get("Later"), [
      "- [ ] Dark mode",
      "- [ ] Export to CSV",
      "- [ ] Rate-limit the API",
    ]);
    assert.deepEqual(s.get("Now"), sections(TODO).get("Now"));
    assert.deepEqual(s.get("Done"), sections(TODO).get("Done"));
    assert.equal(
      after,
      TODO.replace("- [ ] Export to CSV\n", "- [ ] Export to CSV\n- [ ] Rate-limit the API\n"),
    );

    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    const tools = (session.messages as { role: string; call?: { tool: string } }[])
      .filter((m) => m.role === "tool_call").map((m) => m.call!.tool);
    assert.deepEqual(tools, ["search_files", "read_file", "edit_file", "attempt_completion"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
