import assert from "node:assert/strict";
import { ProseScanner } from "../../../core/protocol/prose_scan.ts";
import { perChar } from "./fuzz.ts";

/** The opener's start found in `text`, fed whole and one character at a time (-1: none). */
function openerAt(text: string): number {
  const found: number[] = [];
  for (const chunks of [[text], perChar(text)]) {
    const s = new ProseScanner(0);
    let base = 0;
    for (const c of chunks) {
      if (s.opener !== null) break;
      s.scan(c, 0, base);
      base += c.length;
    }
    s.end();
    found.push(s.opener?.start ?? -1);
  }
  assert.equal(found[0], found[1], `chunked differs for ${JSON.stringify(text)}`);
  return found[0];
}

Deno.test("`ProseScanner` finds the first `<tool_call>` outside code spans and thinking", () => {
  const T = "<tool_call>";
  const cases: [string, number][] = [
    [`abc ${T}`, 4],
    [`\`${T}\` ${T}`, 14],
    [`\`\`${T}\` ${T}`, 2], // the run of 2 never closes: the first opener counts
    [`\`\`a\` b\`\` ${T}`, 9],
    [`\`a\n${T}\``, 3],
    [`<thinking>${T}</thinking>${T}`, 32],
    [`<thinking>${T}`, -1],
    [`\`<thinking>\` ${T}`, 13],
    [`x \`\` <thinking> y\n${T}`, -1], // the run is literal, so <thinking> opens and never closes
    [`x \`\` <thinking></thinking> ${T}`, 27],
    [`<thinking>\`</thinking>\` ${T}`, 24], // inside thinking, backticks mean nothing
    [`\`\`\`xml\n${T}\n\`\`\``, 7],
    [`<tool_call ${T}`, 11],
    ["<tool_cal", -1],
  ];
  for (const [text, want] of cases) assert.equal(openerAt(text), want, JSON.stringify(text));
});

Deno.test("`ProseScanner.safe()` holds back a possible opener only", () => {
  const s = new ProseScanner(0);
  s.scan("hello <tool", 0, 0);
  assert.equal(s.safe(), 6);
  s.scan("box> `a <tool_call> b", 0, 11);
  assert.equal(s.safe(), 19);
  s.scan(" c\n", 0, 32);
  assert.equal(s.opener?.start, 19);
  assert.equal(s.safe(), 19);
});
