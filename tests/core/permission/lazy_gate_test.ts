import assert from "node:assert/strict";
import type { Gate, GateInput } from "../../../interfaces/tool.ts";
import { lazyGate } from "../../../core/permission/lazy_gate.ts";

const INPUT = {
  call: { tool: "read_file", params: { path: "a" } },
  preview: { kind: "none" },
  cwd: "/tmp",
} as unknown as GateInput;

Deno.test("`lazyGate()` loads once, at its first check or warm-up, and then asks the loaded gate", async () => {
  let loads = 0;
  const gate = lazyGate("lazy", () => {
    loads++;
    const inner: Gate = {
      name: "lazy",
      check: () => ({ gate: "lazy", action: "deny", reason: "x" }),
    };
    return Promise.resolve(inner);
  });
  assert.equal(loads, 0, "nothing is loaded before it is needed");
  await gate.warm?.(() => Promise.resolve(), []);
  assert.equal(loads, 1);
  assert.equal((await gate.check(INPUT)).action, "deny");
  assert.equal(loads, 1);
});

Deno.test("`lazyGate()` whose load fails rejects every check (the runner refuses the call)", async () => {
  const gate = lazyGate("lazy", () => Promise.reject(new Error("module missing")));
  await assert.rejects(Promise.resolve(gate.check(INPUT)), /module missing/);
  await assert.rejects(Promise.resolve(gate.check(INPUT)), /module missing/);
});

Deno.test("`lazyGate()` answers the calls `passes` names without loading, and loads for the rest", async () => {
  let loads = 0;
  const gate = lazyGate("lazy", () => {
    loads++;
    return Promise.resolve<Gate>({ name: "lazy", check: () => ({ gate: "lazy", action: "ask" }) });
  }, { passes: (input) => input.call.tool === "read_file" });
  assert.deepEqual(await gate.check(INPUT), { gate: "lazy", action: "pass" });
  assert.equal(loads, 0);
  const write = { ...INPUT, call: { tool: "write_to_file", params: {} } } as GateInput;
  assert.equal((await gate.check(write)).action, "ask");
  assert.equal(loads, 1);
});

Deno.test("`lazyGate()`'s warm-up loads only once `large()` says so, and not again once loaded", async () => {
  let loads = 0;
  const gate = lazyGate("lazy", () => {
    loads++;
    return Promise.resolve<Gate>({ name: "lazy", check: () => ({ gate: "lazy", action: "pass" }) });
  });
  let go: () => void = () => {};
  let asked = 0;
  const large = () => new Promise<void>((resolve) => (asked++, go = resolve));
  const warming = gate.warm!(() => Promise.resolve(), [], large);
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(loads, 0, "waits for its moment");
  go();
  await warming;
  assert.equal(loads, 1);
  await gate.warm!(() => Promise.resolve(), [], large);
  assert.equal(asked, 1, "loaded: nothing left that cannot be cut");
});
