import { equal as assertEquals } from "node:assert/strict";
import { fileURLToPath } from "node:url";
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
  // In a process of its own: in the test runner's, other tests' freed pages make the resident set
  // a poor measure of what this one made.
  const script = new URL("../../fixtures/heap_keeper_real.ts", import.meta.url);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-read", fileURLToPath(script)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const { made, before, after, collections } = JSON.parse(text);
  assertEquals(collections, 1, `${made} bytes made and dropped; rss ${before} → ${after}`);
  if (after >= before) throw new Error(`A full collection freed nothing: rss ${before} → ${after}`);
});
