/**
 * Random replies built from the markup the scanner cares about: every
 * chunking must give the same result and prose as the whole reply.
 */
import assert from "node:assert/strict";
import { isInputMinusCall, perChar, randomChunks, rng, stream, visibleOf } from "./fuzz.ts";
import { SPECS } from "./specs.ts";

const PIECES = [
  "<tool_call>",
  "</tool_call>",
  "<write_to_file>",
  "</write_to_file>",
  "<read_files>",
  "</read_files>",
  "<read_file>",
  "</read_file>",
  "<path>",
  "</path>",
  "<content>",
  "</content>",
  "<paths>",
  "<thinking>",
  "</thinking>",
  "<bogus>",
  "`",
  "``",
  "\n",
  "\r\n",
  "\r",
  " ",
  "\t",
  "a.md",
  "x",
  "<",
  ">",
  "</",
  "<![CDATA[",
  "]]>",
  "&amp;",
  "日本",
  "🚀",
];

const SKELETONS = [
  [
    "ok ",
    "<tool_call>",
    "\n",
    "<write_to_file>",
    "<path>",
    "a.md",
    "</path>",
    "<content>",
    "x",
    "</content>",
    "</write_to_file>",
    "\n",
    "</tool_call>",
    " done",
  ],
  [
    "```",
    "\n",
    "<tool_call>",
    "<read_files>",
    "<paths>",
    "<path>",
    "a",
    "</path>",
    "<path>",
    "b",
    "</path>",
    "</read_files>",
    "</tool_call>",
    "\n",
    "```",
  ],
  [
    "<thinking>",
    "x",
    "</thinking>",
    "<tool_call>",
    "<read_file>",
    "<path>",
    "a",
    "</path>",
    "</read_file>",
    "</tool_call>",
  ],
  [
    "<tool_call>",
    "<read_file>",
    "<path>",
    "a",
    "</path>",
    "</read_file>",
    "</tool_call>",
    "\n",
    "<tool_call>",
    "<read_file>",
    "<path>",
    "b",
    "</path>",
    "</read_file>",
    "</tool_call>",
  ],
];

/** A skeleton call with a few random pieces inserted or removed, or plain soup. */
function randomReply(next: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const parts = next() < 0.2 ? [] : [...pick(SKELETONS)];
  const edits = parts.length === 0 ? 3 + Math.floor(next() * 40) : Math.floor(next() * 5);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * (parts.length + 1));
    if (parts.length > 0 && next() < 0.3) parts.splice(Math.min(at, parts.length - 1), 1);
    else parts.splice(at, 0, pick(PIECES));
  }
  return parts.join("");
}

Deno.test("`CallScanner` gives the same result and prose for every chunking of random replies", () => {
  const next = rng(20240611);
  const kinds = new Map<string, number>();
  for (let k = 0; k < 3000; k++) {
    const reply = randomReply(next);
    const whole = stream([reply], SPECS);
    const kind = whole.result.kind === "error" ? whole.result.error : whole.result.kind;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    for (const chunks of [perChar(reply), randomChunks(reply, k, 5)]) {
      const got = stream(chunks, SPECS);
      assert.deepEqual(got.result, whole.result, JSON.stringify(reply));
      assert.equal(got.prose, whole.prose, JSON.stringify(reply));
    }
    const visible = visibleOf(reply);
    if (whole.result.kind === "none" && visible !== null) assert.equal(whole.prose, visible);
    if (whole.result.kind === "call" && visible !== null) {
      assert.ok(isInputMinusCall(reply, whole.prose), JSON.stringify([reply, whole.prose]));
    }
  }
  // The generator reaches every outcome, so the comparison above means something.
  for (
    const kind of [
      "none",
      "call",
      "unknown_tool",
      "unclosed",
      "multiple_tool_calls",
      "missing_param",
    ]
  ) {
    assert.ok((kinds.get(kind) ?? 0) > 10, `${kind}: ${kinds.get(kind) ?? 0}`);
  }
});
