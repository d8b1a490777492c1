import assert from "node:assert/strict";
import {
  countLines,
  decodeText,
  displayPath,
  isBinary,
  isCrlf,
  resolvePath,
  splitLines,
} from "../../../core/tools/paths.ts";

const ctx = { cwd: "/work/project" };

Deno.test("resolvePath() resolves relative paths against cwd and keeps absolute ones", () => {
  assert.equal(resolvePath(ctx, "src/a.ts"), "/work/project/src/a.ts");
  assert.equal(resolvePath(ctx, "../x"), "/work/x");
  assert.equal(resolvePath(ctx, "/etc/hosts"), "/etc/hosts");
});

Deno.test("resolvePath() does not expand ~ and rejects an empty path", () => {
  assert.equal(resolvePath(ctx, "~/a"), "/work/project/~/a");
  assert.throws(() => resolvePath(ctx, "  "), /must not be empty/);
});

Deno.test("displayPath() is relative inside cwd and absolute outside", () => {
  assert.equal(displayPath(ctx, "/work/project/src/a.ts"), "src/a.ts");
  assert.equal(displayPath(ctx, "/work/project"), ".");
  assert.equal(displayPath(ctx, "/work/other/a.ts"), "/work/other/a.ts");
  assert.equal(displayPath(ctx, "/work/project-2/a"), "/work/project-2/a");
});

Deno.test("isBinary() is true for a NUL byte or invalid UTF-8 in the first 8 KB", () => {
  assert.equal(isBinary(new TextEncoder().encode("héllo wörld ✓")), false);
  assert.equal(isBinary(new Uint8Array([104, 0, 105])), true);
  assert.equal(isBinary(new Uint8Array([0xff, 0xfe, 0x41])), true);
});

Deno.test("isBinary() accepts a multi-byte character cut at the 8 KB edge", () => {
  const bytes = new TextEncoder().encode("a".repeat(8191) + "é" + "b");
  assert.equal(isBinary(bytes), false);
});

Deno.test("decodeText() returns null for binaries and keeps a byte-order mark", () => {
  assert.equal(decodeText(new Uint8Array([1, 0, 2])), null);
  const withBom = new Uint8Array([0xef, 0xbb, 0xbf, 0x61]);
  assert.equal(decodeText(withBom), "\uFEFFa");
});

Deno.test("decodeText() keeps text whose invalid bytes come after the first 8 KB", () => {
  const bytes = new Uint8Array(9000).fill(0x61);
  bytes[8500] = 0xff;
  const text = decodeText(bytes);
  assert.ok(text !== null);
  assert.equal(text.length, 9000);
  assert.equal(text[8500], "\uFFFD");
});

Deno.test("countLines() and splitLines() do not count a final line break as a line", () => {
  assert.equal(countLines(""), 0);
  assert.equal(countLines("a"), 1);
  assert.equal(countLines("a\n"), 1);
  assert.equal(countLines("a\n\nb"), 3);
  assert.deepEqual(splitLines("a\r\nb\r\n"), ["a", "b"]);
  assert.deepEqual(splitLines(""), []);
});

Deno.test("isCrlf() is true only when every line break is CRLF", () => {
  assert.equal(isCrlf("a\r\nb\r\n"), true);
  assert.equal(isCrlf("a\r\nb\n"), false);
  assert.equal(isCrlf("a"), false);
});
