import assert from "node:assert/strict";
import { CallScanner } from "../../../core/protocol/xml.ts";
import { QuietRun } from "../../../core/protocol/quiet_run.ts";
import { ReasoningSplitter } from "../../../core/protocol/reasoning_split.ts";
import { TextStore } from "../../../core/protocol/text_store.ts";
import { cutAt, rng } from "./fuzz.ts";
import { SPECS } from "./specs.ts";

const BODY = '<li>{a < b && "</content>"}</li>\n<p>x</p>\n'.repeat(40);
const REPLY = `Saving.\n<tool_call>\n<write_to_file>\n<path>a.html</path>\n<content>\n${BODY}` +
  "</content>\n</write_to_file>\n</tool_call>\nWaiting... ok.";

function quiet(): QuietRun {
  const q = new QuietRun(new TextStore(), new ReasoningSplitter());
  q.on = true;
  q.heedOnly([116], [99]); // `t` and `c` begin tags that count
  return q;
}

Deno.test("`QuietRun.take()` keeps text whose every `<` begins no heeded tag", () => {
  const q = quiet();
  assert.equal(q.take("plain text, <b>bold</b> and a < b"), null);
  assert.equal(q.take("then <tool"), "then <tool");
  assert.equal(q.lt, 5);
  assert.equal(q.take("x </content> y"), "x </content> y");
  q.handOn();
  assert.equal(q.store.text(), "plain text, <b>bold</b> and a < b");
  assert.equal(q.text, "");
});

Deno.test("`QuietRun.take()` reads a `<` cut at a chunk's end with the next chunk", () => {
  const q = quiet();
  assert.equal(q.take("some text <"), null);
  assert.equal(q.cut, "<");
  assert.equal(q.take("/"), null);
  assert.equal(q.cut, "</");
  assert.equal(q.take("content>"), "</content>");
  assert.equal(q.take("more <"), null);
  assert.equal(q.take("li>"), null);
  q.handOn();
  assert.equal(q.store.text(), "some text more <li>");
});

Deno.test("`CallScanner.push()` shows the same updates at the same chunks on the hot path", () => {
  const rand = rng(24);
  const after = REPLY.indexOf("\nWaiting");
  const pathEnd = REPLY.indexOf("</path>") + "</path>".length;
  for (let round = 0; round < 200; round++) {
    const size = 1 + Math.floor(rand() * 24);
    const cuts = Array.from(
      { length: REPLY.length / size },
      () => Math.floor(rand() * REPLY.length),
    );
    const s = new CallScanner(SPECS);
    let at = 0;
    let prose = "";
    for (const chunk of cutAt(REPLY, cuts)) {
      const u = s.push(chunk);
      at += chunk.length;
      prose += u.prose;
      // The summary names the path in the chunk that closes it, not later.
      if (u.call !== undefined && u.call !== "write_to_file") assert.ok(at >= pathEnd, u.call);
      if (at >= pathEnd && at - chunk.length < pathEnd) {
        assert.equal(u.call, "write_to_file a.html");
      }
      // Prose after the call shows in the chunk that brings it.
      if (at > after) assert.equal(prose, "Saving.\n" + REPLY.slice(after, at));
    }
    assert.equal(s.finish().kind, "call");
  }
});

Deno.test("`QuietRun.clear` notes text handed on while `t` and `r` are heeded, and only then", () => {
  const q = new QuietRun(new TextStore(), new ReasoningSplitter());
  q.on = true;
  q.heedOnly([116, 114, 102], []);
  q.store.append("head ");
  assert.equal(q.take("a <b> c"), null); // too short to be noted alone
  q.handOn();
  for (let k = 0; k < 200; k++) assert.equal(q.take("d </li> e"), null);
  q.handOn(); // 12..1812
  q.heedOnly([102], []); // the splitter no longer reads tags
  for (let k = 0; k < 200; k++) assert.equal(q.take(" <think> </tool_call>"), null);
  q.handOn();
  // In a text that is all `<`, the first one found after `from` is the first outside the spans.
  const probe = "<".repeat(q.store.length);
  assert.equal(q.clear.indexOf(probe, "<", 0), 0);
  assert.equal(q.clear.indexOf(probe, "<", 12), 1812);
  assert.equal(q.clear.indexOf(probe, "<", 1813), 1813);
});

Deno.test("`CallScanner` finds the tags text taken unread may hold once reasoning ended", () => {
  const call = `{"name": "read_file", "arguments": {"path": "${"a<b>".repeat(400)}"}}`;
  const replies = [
    `<think>plan</think>\n<tool_call>\n${call}\n</tool_call>\nDone, <b>x</b>.`,
    `<think>plan</think>\nSee <think>an <tool_call>\n${call}\n</tool_call></think> so.`,
    `Text <li> and more\n<tool_call>\n${call}\n</tool_call>\nDone <thinking>x</thinking> y`,
  ];
  for (const reply of replies) {
    const whole = new CallScanner(SPECS);
    whole.push(reply);
    const want = whole.finish();
    for (let size = 1; size <= 8; size++) {
      const s = new CallScanner(SPECS);
      for (let i = 0; i < reply.length; i += size) s.push(reply.slice(i, i + size));
      assert.deepEqual(s.finish(), want, `${size}: ${reply}`);
      assert.equal(s.finalProse(), whole.finalProse(), `${size}: ${reply}`);
    }
  }
});
