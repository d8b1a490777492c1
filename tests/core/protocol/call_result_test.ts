import assert from "node:assert/strict";
import { CallScanner, parseReply } from "../../../core/protocol/xml.ts";
import { SPECS } from "./specs.ts";

const OPEN = "<tool_call>\n<write_to_file>\n";
const CLOSE = "</write_to_file>\n</tool_call>\n";

/** The result of `reply` whole, then fed in chunks of every size up to 12, compared. */
function everyChunking(reply: string): unknown {
  const whole = parseReply(reply, SPECS);
  for (let size = 1; size <= 12; size++) {
    const s = new CallScanner(SPECS);
    for (let i = 0; i < reply.length; i += size) s.push(reply.slice(i, i + size));
    assert.deepEqual(s.finish(), whole, `chunks of ${size}`);
  }
  return whole;
}

Deno.test("`finish()` runs a bulk value to its last closing tag, a parameter after it read", () => {
  const reply =
    `${OPEN}<content>a</content> <path>x</path> b</content>\n<path>p.md</path>\n${CLOSE}`;
  assert.deepEqual(everyChunking(reply), {
    kind: "call",
    call: {
      tool: "write_to_file",
      params: { content: "a</content> <path>x</path> b", path: "p.md" },
    },
  });
});

Deno.test("`finish()` reports a bulk value opened again after its last closing tag", () => {
  const reply = `${OPEN}<path>p.md</path><content>a</content>\n<content>b\n${CLOSE}`;
  const result = everyChunking(reply) as { kind: string; error?: string };
  assert.equal(result.kind, "error");
  assert.equal(result.error, "unclosed");
});

Deno.test("`finish()` keeps a bulk value's tags inside a plain value apart", () => {
  const reply = `${OPEN}<path>a<content>b</path>\n<content>c</content>\n${CLOSE}`;
  assert.deepEqual(everyChunking(reply), {
    kind: "call",
    call: { tool: "write_to_file", params: { path: "a<content>b", content: "c" } },
  });
});
