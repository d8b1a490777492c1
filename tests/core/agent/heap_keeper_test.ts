import { equal as assertEquals } from "node:assert/strict";
import { HeapKeeper } from "../../../core/agent/heap_keeper.ts";

const MB = 1024 * 1024;

Deno.test("HeapKeeper.tend() collects only once the resident set grew by the growth given", async () => {
  let rss = 100 * MB;
  const keeper = new HeapKeeper({ growth: 16 * MB, rss: () => rss });
  await keeper.tend();
  rss += 15 * MB;
  await keeper.tend();
  assertEquals(keeper.collections, 0);
  rss += 2 * MB;
  await keeper.tend();
  assertEquals(keeper.collections, 1, "117 MB is 17 MB above the 100 MB floor");
  // The floor is now what the collection left (the fake stays at 117 MB).
  rss += 10 * MB;
  await keeper.tend();
  assertEquals(keeper.collections, 1);
  rss += 6 * MB;
  await keeper.tend();
  assertEquals(keeper.collections, 2);
});

Deno.test("HeapKeeper.tend() follows the floor down when memory shrinks by itself", async () => {
  let rss = 100 * MB;
  const keeper = new HeapKeeper({ growth: 16 * MB, rss: () => rss });
  await keeper.tend();
  rss = 90 * MB;
  await keeper.tend();
  rss = 107 * MB;
  await keeper.tend();
  assertEquals(keeper.collections, 1, "17 MB above the new 90 MB floor");
});

Deno.test("HeapKeeper.tend() frees dead request bodies with a real full collection", async () => {
  const keeper = new HeapKeeper({ growth: 8 * MB });
  await keeper.tend();
  // Bodies like a session's requests: strings encoded into bytes, then dropped.
  const encoder = new TextEncoder();
  let made = 0;
  for (let turn = 1; turn <= 120; turn++) {
    made += encoder.encode(JSON.stringify({ content: "x".repeat(turn * 2000) + "é" })).length;
  }
  const before = Deno.memoryUsage().rss;
  await keeper.tend();
  const after = Deno.memoryUsage().rss;
  assertEquals(keeper.collections, 1, `${made} bytes made and dropped; rss ${before} → ${after}`);
  if (after >= before) throw new Error(`A full collection freed nothing: rss ${before} → ${after}`);
});
