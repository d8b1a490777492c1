import assert from "node:assert/strict";
import { cycles, importGraph, layerOf, LAYERS } from "./imports.ts";

Deno.test("every source file belongs to a layer named in ARCHITECTURE.md", async () => {
  const graph = await importGraph();
  const lost = [...graph.keys()].filter((f) => layerOf(f) < 0);
  assert.deepEqual(lost, [], `Files outside the layers ${LAYERS.join(", ")}`);
});

Deno.test("imports run only downward through the layers", async () => {
  const graph = await importGraph();
  const upward: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      if (layerOf(target) < layerOf(file)) upward.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(upward, [], `Upward imports (layers, top first: ${LAYERS.join(" > ")})`);
});

Deno.test("no module imports itself through a circle", async () => {
  const found = cycles(await importGraph()).map((c) => c.join(" -> "));
  assert.deepEqual(found, []);
});

Deno.test("cycles() finds a circle and layerOf() places files", () => {
  const graph = new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", ["a.ts"]]]);
  assert.deepEqual(cycles(graph), [["a.ts", "b.ts", "c.ts", "a.ts"]]);
  assert.equal(layerOf("cli/program.ts"), 1);
  assert.equal(layerOf("core/agent/loop.ts") < layerOf("core/tools/mod.ts"), true);
  assert.equal(layerOf("elsewhere/x.ts"), -1);
});
