import assert from "node:assert/strict";
import { CallScanner } from "../../../core/protocol/xml.ts";
import { DisplayHold } from "../../../core/protocol/display_hold.ts";
import { perChar } from "./fuzz.ts";
import { SPECS } from "./specs.ts";

/** Prose shown while streaming (before the end), and the whole prose. */
function shown(reply: string): { live: string; all: string } {
  const s = new CallScanner(SPECS);
  let live = "";
  for (const c of perChar(reply)) live += s.push(c).prose;
  s.finish();
  return { live, all: live + s.finalProse() };
}

Deno.test("`DisplayHold` releases a ```json fence as soon as text follows it", () => {
  const reply =
    'Config:\n```json\n{"name": "read_file", "arguments": {}}\n```\nThat is all.\nBye\n';
  const { live, all } = shown(reply);
  assert.equal(all, reply);
  assert.ok(live.includes('{"name": "read_file"'), JSON.stringify(live));
});

Deno.test("`DisplayHold` releases a tool element quoted in the middle of an answer", () => {
  const reply = "Cline writes:\n<read_file>\n<path>a</path>\n</read_file>\nas its call.\nDone\n";
  const { live, all } = shown(reply);
  assert.equal(all, reply);
  assert.ok(live.includes("<path>a</path>"), JSON.stringify(live));
});

Deno.test("`DisplayHold` keeps a call that ends the reply off the screen", () => {
  for (
    const reply of [
      'Reading.\n```json\n{"name": "read_file", "arguments": {"path": "a"}}\n```\n',
      "Reading.\n<read_file>\n<path>a</path>\n</read_file>\n",
      'Reading.\n[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "a"}}]',
      'Reading. <|python_tag|>{"name": "read_file", "parameters": {"path": "a"}}',
      'Reading.\n[read_file(path="a")]',
    ]
  ) {
    const { live, all } = shown(reply);
    assert.ok(!all.includes("read_file"), JSON.stringify([reply, all]));
    assert.ok(live.startsWith("Reading."), JSON.stringify(live));
  }
});

Deno.test("`DisplayHold` shows ordinary code at once: only a brace line naming a tool holds", () => {
  const h = new DisplayHold(new Set(["read_file"]));
  const code = "```ts\nconst a = { b: 1 };\n{ done(); }\n[1, 2].map(f);\n```\n";
  assert.equal(h.push(code), code);
  assert.equal(h.push('{"name": "x"}\n'), "");
  assert.ok(h.holding);
});

Deno.test("`DisplayHold` stays linear while it holds a 1 MB fence or element fed in 16-byte chunks", () => {
  const line = '  const v = a < b && "</x>"; // ``` not a fence\n';
  const body = line.repeat(Math.ceil(1_000_000 / line.length));
  const replies = [
    // A fence whose one line is the whole JSON call, and an element with many lines.
    `Here.\n\`\`\`json\n${
      JSON.stringify({ name: "read_file", arguments: { path: body } })
    }\n\`\`\``,
    `Saving.\n\n<write_to_file>\n<path>a</path>\n<content>\n${body}</content>\n</write_to_file>`,
  ];
  for (const reply of replies) {
    const started = performance.now();
    const s = new CallScanner(SPECS);
    for (let i = 0; i < reply.length; i += 16) s.push(reply.slice(i, i + 16));
    assert.equal(s.finish().kind, "call");
    // Quadratic work took minutes here; linear work takes well under a second.
    const ms = performance.now() - started;
    assert.ok(ms < 8_000, `took ${ms.toFixed(0)} ms`);
  }
});
