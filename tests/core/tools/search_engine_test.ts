import assert from "node:assert/strict";
import { join } from "node:path";
import type { FsPort } from "../../../interfaces/tool.ts";
import { realFs } from "../../../core/tools/fs_port.ts";
import { compileGlob } from "../../../core/tools/glob.ts";
import {
  compileQuery,
  MAX_SEARCH_BYTES,
  searchTree,
  WORKER_THRESHOLD,
} from "../../../core/tools/search_engine.ts";
import { makeKit, matchLines } from "../../../core/tools/search_kit.ts";
import { SearchWorkers } from "../../../core/tools/search_workers.ts";
import { makeTree, withTempDir } from "../../support/tool_context.ts";

/** A port over the real disk that is not recognised as the disk (as a dry-run overlay would be). */
const overlay = (): FsPort => ({
  ...realFs,
  readFile: (p) => realFs.readFile(p),
  readDir: (p) => realFs.readDir(p),
});

function search(fs: FsPort, root: string, content: string | null, workers = true, glob = "*") {
  return searchTree({
    fs,
    root,
    cwd: root,
    match: compileGlob(glob),
    query: content === null ? null : compileQuery(content),
    workers,
  });
}

async function bigTree(dir: string) {
  const files: Record<string, string | Uint8Array> = { ".gitignore": "skip/\n" };
  const n = WORKER_THRESHOLD + 300;
  for (let i = 0; i < n; i++) {
    const body = i % 97 === 0 ? `line one\n  call(needle${i});\nneedle again\n` : `nothing ${i}\n`;
    files[`d${i % 13}/f${String(i).padStart(5, "0")}.txt`] = body;
  }
  files["d0/bin.dat"] = new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1]);
  files["skip/needle.txt"] = "needle";
  await makeTree(dir, files);
}

Deno.test("searchTree() finds the same lines with workers, in this thread, and through a port", async () => {
  await withTempDir(async (dir) => {
    await bigTree(dir);
    const withWorkers = await search(realFs, dir, "needle\\d+", true);
    const inline = await search(realFs, dir, "needle\\d+", false);
    const viaPort = await search(overlay(), dir, "needle\\d+", true);
    const expected = Math.ceil((WORKER_THRESHOLD + 300) / 97);
    assert.equal(withWorkers.hits.length, expected);
    assert.deepEqual(withWorkers.hits, inline.hits);
    assert.deepEqual(viaPort.hits, inline.hits);
    assert.equal(withWorkers.binary, 1);
    assert.equal(inline.binary, 1);
    assert.equal(withWorkers.searched, inline.searched);
    assert.deepEqual(withWorkers.hits[0], {
      rel: "d0/f00000.txt",
      count: 1,
      lines: [{ line: 2, text: "  call(needle0);" }],
    });
    const rels = withWorkers.hits.map((h) => h.rel);
    assert.deepEqual(rels, [...rels].sort());
  });
});

Deno.test("SearchWorkers runs batches in worker threads", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "x\nfind me\n", "b.txt": "nothing" });
    const workers = SearchWorkers.start({
      source: "find",
      flags: "m",
      keep: 5,
      maxBytes: 1e6,
      window: 80,
    }, 2);
    try {
      assert.equal(workers.size, 2);
      const r = await workers.submit([
        join(dir, "a.txt"),
        join(dir, "b.txt"),
        join(dir, "gone.txt"),
      ]);
      assert.deepEqual(r, {
        searched: 2,
        binary: 0,
        tooLarge: 0,
        unreadable: 1,
        hits: [{ index: 0, count: 1, lines: [{ line: 2, text: "find me" }] }],
      });
    } finally {
      workers.close();
    }
  });
});

Deno.test("searchTree() lists file names only when there is no content query", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.ts": "", "b.md": "", "src/c.ts": "", "node_modules/d.ts": "" });
    const r = await search(realFs, dir, null, true, "*.ts");
    assert.deepEqual(r.hits.map((h) => h.rel), ["a.ts", "src/c.ts"]);
  });
});

Deno.test("searchTree() skips files over the size limit and counts them", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, {
      "big.txt": "needle\n".repeat(Math.ceil(MAX_SEARCH_BYTES / 7) + 10),
      "s.txt": "needle",
    });
    for (const fs of [realFs, overlay()]) {
      const r = await search(fs, dir, "needle");
      assert.equal(r.tooLarge, 1, String(fs === realFs));
      assert.deepEqual(r.hits.map((h) => h.rel), ["s.txt"]);
    }
  });
});

Deno.test("compileQuery() turns an invalid expression into plain text with a note", () => {
  const q = compileQuery("foo(");
  assert.match(q.note ?? "", /"foo\(" is not a valid regular expression/);
  assert.ok(new RegExp(q.source, q.flags).test("call foo(1)"));
});

Deno.test("compileQuery() reads a leading (?i) as ignore-case", () => {
  const q = compileQuery("(?i)hello");
  assert.equal(q.flags, "mi");
  assert.equal(q.note, undefined);
});

Deno.test("matchLines() counts matching lines once and clips long lines around the match", () => {
  const kit = makeKit({ source: "x|\\^", flags: "m", keep: 2, maxBytes: 1e6, window: 20 });
  const long = "a".repeat(100) + "x" + "b".repeat(100);
  const r = matchLines(kit, `xx x\nnone\n${long}\r\nlast x`);
  assert.equal(r.kind, "hit");
  if (r.kind !== "hit") return;
  assert.equal(r.count, 3);
  assert.equal(r.lines[0].text, "xx x");
  assert.equal(r.lines[1].line, 3);
  assert.match(r.lines[1].text, /^…a+xb+…$/);
  assert.equal(r.lines.length, 2);
});

Deno.test("matchLines() finds line-anchored matches on every line", () => {
  const kit = makeKit({ source: "^\\s*$", flags: "m", keep: 10, maxBytes: 1e6, window: 80 });
  const r = matchLines(kit, "a\n\nb\n  \nc");
  assert.ok(r.kind === "hit");
  if (r.kind === "hit") assert.deepEqual(r.lines.map((l) => l.line), [2, 4]);
});
