import assert from "node:assert/strict";
import type { FileInfo } from "../../../interfaces/tool.ts";
import { createFileTracker } from "../../../core/tools/file_tracker.ts";

const info = (size: number, mtimeMs: number | null): FileInfo => ({
  isFile: true,
  isDirectory: false,
  isSymlink: false,
  size,
  mtimeMs,
});

Deno.test("createFileTracker() says unread for a file never remembered", () => {
  assert.equal(createFileTracker().check("/a", info(1, 1)), "unread");
});

Deno.test("createFileTracker() says fresh when size and mtime are unchanged", () => {
  const t = createFileTracker();
  t.remember("/w/a.ts", info(10, 1000));
  assert.equal(t.check("/w/a.ts", info(10, 1000)), "fresh");
  assert.equal(t.check("/w/x/../a.ts", info(10, 1000)), "fresh");
});

Deno.test("createFileTracker() says changed when the size or the mtime moved", () => {
  const t = createFileTracker();
  t.remember("/a", info(10, 1000));
  assert.equal(t.check("/a", info(11, 1000)), "changed");
  assert.equal(t.check("/a", info(10, 1001)), "changed");
  t.remember("/a", info(11, 1001));
  assert.equal(t.check("/a", info(11, 1001)), "fresh");
});
