/**
 * End-to-end: `minoc debug apply` as a subprocess, and edit blocks from an
 * API model with `run --edit-format blocks` against the scripted server.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMinoc, sessionFiles } from "../support/cli.ts";
import { startServer } from "../support/server.ts";
import { makeTree } from "../support/tool_context.ts";
import { loadCases } from "../core/protocol/blocks_cases.ts";

async function project(files: Record<string, string>): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_blocks_" }));
  await makeTree(dir, files);
  return dir;
}

Deno.test("debug apply --json applies a reply's blocks to --root and lists what changed", async () => {
  const work = await project({});
  const root = await project({ "a.txt": "one\r\ntwo\r\n", "gone.txt": "x\n" });
  try {
    const reply =
      "Sure.\n```\n<<<DIFF: a.txt>>>\n@@ -9 +9 @@\n one\n+one and a half\n two\n<<<END>>>\n```\n" +
      "<<<FILE: [NEW] docs/new file.md>>>\n# New\n<<<END>>>\n<<<DELETE: gone.txt>>>\n";
    const r = await runMinoc(["debug", "apply", "--json", "--root", root], {
      cwd: work,
      stdin: reply,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      ok: true,
      changed: ["a.txt", "docs/new file.md", "gone.txt"],
    });
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "one\r\none and a half\r\ntwo\r\n");
    assert.equal(await Deno.readTextFile(join(root, "docs/new file.md")), "# New\n");
    assert.equal(await Deno.stat(join(root, "gone.txt")).catch(() => null), null);
  } finally {
    await Deno.remove(work, { recursive: true });
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("debug apply --json prints the error kind and block, exits 1 and writes nothing", async () => {
  const root = await project({ "a.txt": "a\n", "b.txt": "b\n" });
  try {
    const cases: [string, object][] = [
      ["<<<FILE: a.txt>>>\nA\n<<<END>>>\n<<<DIFF: b.txt>>>\n@@\n-zzz\n+b\n<<<END>>>\n", {
        error: "hunk_not_found",
        block: 2,
      }],
      ["<<<FILE: a.txt>>>\nA\n", { error: "unclosed", block: 1 }],
      ["<<<DELETE: a.txt>>>\n<<<DELETE: missing.txt>>>\n", { error: "file_not_found", block: 2 }],
      ["<<<DIFF: b.txt>>>\n@@\n+x\n<<<END>>>\n", { error: "ambiguous", block: 1 }],
      ["<<<DELETE: ../escape.txt>>>\n", { error: "outside_root", block: 1 }],
    ];
    for (const [reply, want] of cases) {
      const r = await runMinoc(["debug", "apply", "--json", "--root", root], {
        cwd: root,
        stdin: reply,
      });
      assert.equal(r.code, 1, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), want);
    }
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "a\n");
    const human = await runMinoc(["debug", "apply", "--root", root], {
      cwd: root,
      stdin: "<<<DIFF: b.txt>>>\n@@\n-nope\n<<<END>>>\n",
    });
    assert.equal(human.code, 1);
    assert.match(
      human.stdout,
      /^Not applied \(hunk_not_found\): Block 1 \(DIFF b\.txt\): hunk 1 was not found/,
    );
    const bad = await runMinoc(["debug", "apply", "--root", join(root, "nope")], {
      cwd: root,
      stdin: "",
    });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Root ".*nope" is not a directory/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("debug apply gives the corpus's CRLF and error cases the same results as the library", async () => {
  const kinds = new Set<string>();
  const picked = (await loadCases()).filter((c) => {
    if (c.error) return !kinds.has(c.error.kind) && !!kinds.add(c.error.kind);
    return Object.values(c.files).some((t) => t.includes("\r\n")) || c.reply.includes("\r\n");
  });
  assert.ok(picked.length >= 8, `${picked.length} cases`);
  for (const c of picked) {
    const root = await project(c.files);
    try {
      const r = await runMinoc(["debug", "apply", "--json", "--root", root], {
        cwd: root,
        stdin: c.reply,
      });
      const out = JSON.parse(r.stdout);
      if (c.error) {
        assert.deepEqual(out, { error: c.error.kind, block: c.error.block }, c.name);
        continue;
      }
      assert.equal(out.ok, true, c.name);
      for (const [path, want] of Object.entries(c.expect)) {
        assert.equal(await Deno.readTextFile(join(root, path)).catch(() => null), want, c.name);
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }
});

Deno.test("run --edit-format blocks applies an API model's edit blocks as one recorded call", async () => {
  const dir = await project({ "a.txt": "one\n", "b.txt": "bee\n" });
  await using server = await startServer({
    replies: [
      {
        text: "Two changes:\n<<<DIFF: a.txt>>>\n@@\n-one\n+ONE\n<<<END>>>\n" +
          "<<<FILE: b.txt>>>\nBEE\n<<<END>>>\n",
      },
      { text: "Both files are updated." },
    ],
  });
  try {
    const r = await runMinoc(
      [
        "run",
        "shout",
        "--base-url",
        server.baseUrl,
        "--model",
        "m",
        "--yes",
        "--edit-format",
        "blocks",
      ],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "ONE\n");
    assert.equal(await Deno.readTextFile(join(dir, "b.txt")), "BEE\n");
    const system = server.requests[0].body.messages[0].content as string;
    assert.match(system, /# Edit blocks/);
    const second = server.requests[1].body.messages.at(-1).content as string;
    assert.match(
      second,
      /^\[apply_edit_blocks a\.txt, b\.txt\] Result:\nApplied the edit blocks: 2 files changed/,
    );
    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    const messages = session.messages as { role: string; call?: { tool: string } }[];
    const call = messages.find((m) => m.role === "tool_call");
    assert.equal(call?.call?.tool, "apply_edit_blocks");
    const meta = session.metadata as { filesChanged: string[] };
    assert.deepEqual(meta.filesChanged.sort(), ["a.txt", "b.txt"]);
    const undo = await runMinoc(["undo"], { cwd: dir });
    assert.equal(undo.code, 0, undo.stderr + undo.stdout);
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "one\n");
    assert.equal(await Deno.readTextFile(join(dir, "b.txt")), "bee\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
