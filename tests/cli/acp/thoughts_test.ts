import assert from "node:assert/strict";
import { ThoughtSplitter } from "../../../cli/acp/thoughts.ts";

Deno.test("ThoughtSplitter.push() keeps a tag cut across chunks and splits thought from message", () => {
  const s = new ThoughtSplitter();
  const out = [
    ...s.push("Hi <think"),
    ...s.push("ing>plan it</thi"),
    ...s.push("nking> done"),
    ...s.flush(),
  ];
  assert.deepEqual(out, [
    { thought: false, text: "Hi " },
    { thought: true, text: "plan it" },
    { thought: false, text: " done" },
  ]);
});

Deno.test("ThoughtSplitter.flush() gives back a held '<' that never became a tag", () => {
  const s = new ThoughtSplitter();
  assert.deepEqual(s.push("a <"), [{ thought: false, text: "a " }]);
  assert.deepEqual(s.flush(), [{ thought: false, text: "<" }]);
});

Deno.test("ThoughtSplitter.flush() ends an unclosed thought so the next reply starts as a message", () => {
  const s = new ThoughtSplitter();
  assert.deepEqual(s.push("<thinking>never closed"), [{ thought: true, text: "never closed" }]);
  s.flush();
  assert.deepEqual(s.push("next"), [{ thought: false, text: "next" }]);
});
