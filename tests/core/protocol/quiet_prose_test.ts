import assert from "node:assert/strict";
import { CallScanner } from "../../../core/protocol/xml.ts";
import { cutAt, rng } from "./fuzz.ts";
import { SPECS } from "./specs.ts";

const BODY = '<li>{a < b && "</content>"}</li>\n<p>x</p> `code`\n'.repeat(30);
const FENCED = "Here.\n```json\n" +
  JSON.stringify({ name: "write_to_file", arguments: { path: "a.html", content: BODY } }) +
  "\n```\n\nAfter the block.\nMore text.";
const ELEMENT = `Here.\n<write_to_file>\n<path>a.html</path>\n<content>\n${BODY}</content>\n` +
  "</write_to_file>\n\nAfter the element.\nMore text.";
const STRONG = "Calling.\n[TOOL_CALLS]" +
  JSON.stringify([{ name: "write_to_file", arguments: { path: "a.html", content: BODY } }]);

/** Feeds `reply` cut at random; `check` sees the prose shown so far after each chunk. */
function everyCut(reply: string, check: (prose: string, at: number) => void): void {
  const rand = rng(24);
  for (let round = 0; round < 150; round++) {
    const size = 1 + Math.floor(rand() * 24);
    const cuts = Array.from(
      { length: reply.length / size },
      () => Math.floor(rand() * reply.length),
    );
    const s = new CallScanner(SPECS);
    let at = 0;
    let prose = "";
    for (const chunk of cutAt(reply, cuts)) {
      prose += s.push(chunk).prose;
      at += chunk.length;
      check(prose, at);
    }
    s.finish();
  }
}

/** A held block is shown in the chunk that ends the first line of text after it, not later. */
function releasedOnTime(reply: string, after: string): void {
  const end = reply.indexOf(after) + after.length + 1; // just after that line's newline
  everyCut(reply, (prose, at) => {
    if (at < end) assert.ok(!prose.includes(after), `shown early at ${at}`);
    else assert.ok(prose.startsWith(reply.slice(0, end)), `not shown at ${at}`);
  });
}

Deno.test("`CallScanner.push()` shows a closed fence with the text after it at once", () => {
  releasedOnTime(FENCED, "After the block.");
});

Deno.test("`CallScanner.push()` shows a closed tool element with the text after it at once", () => {
  releasedOnTime(ELEMENT, "After the element.");
});

Deno.test("`CallScanner.push()` holds a call in another dialect off the screen to the end", () => {
  everyCut(STRONG, (prose, at) => {
    if (at >= "Calling.\n".length) assert.equal(prose, "Calling.\n");
  });
});
