import assert from "node:assert/strict";
import { CallScanner, parseReply, type StreamUpdate } from "../../../core/protocol/xml.ts";
import { perChar, stream } from "./fuzz.ts";
import { SPECS } from "./specs.ts";

function pushAll(s: CallScanner, chunks: readonly string[]): StreamUpdate[] {
  return chunks.map((c) => s.push(c));
}

const WRITE = "Saving it.\n<tool_call>\n<write_to_file>\n<path>notes.md</path>\n<content>\n" +
  "<h1>x</h1>\n</content>\n</write_to_file>\n</tool_call>\nWaiting.";

Deno.test("`push()` holds back a possible opener until it is resolved", () => {
  const s = new CallScanner(SPECS);
  assert.deepEqual(s.push("Text <tool_"), { prose: "Text " });
  assert.deepEqual(s.push("box> more"), { prose: "<tool_box> more" });
  assert.deepEqual(s.push(" <"), { prose: " " });
  assert.deepEqual(s.push("b>"), { prose: "<b>" });
  assert.deepEqual(s.finish(), { kind: "none" });
  assert.equal(s.finalProse(), "");
});

Deno.test("`push()` never shows the XML of a call, whatever the chunking", () => {
  for (const chunks of [perChar(WRITE), [WRITE]]) {
    const s = new CallScanner(SPECS);
    let shown = "";
    for (const u of pushAll(s, chunks)) {
      shown += u.prose;
      assert.ok(!/<(tool_|\/?write_to|\/?path|\/?content)/.test(shown), shown);
    }
    assert.equal(shown, "Saving it.\n\nWaiting.");
  }
});

Deno.test("`push()` reports the live summary only when it changes", () => {
  const s = new CallScanner(SPECS);
  const calls = pushAll(s, perChar(WRITE)).flatMap((u) => u.call === undefined ? [] : [u.call]);
  assert.deepEqual(calls, ["write_to_file", "write_to_file notes.md"]);
});

Deno.test("`push()` summarises commands, questions and several paths on one line", () => {
  const cases: [string, string][] = [
    ["<tool_call><execute_command><command>\nnpm test\n</command>", "execute_command npm test"],
    [`<tool_call><attempt_completion><result>Done.\nMore</result>`, "attempt_completion Done."],
    ["<tool_call><read_files><path>a.ts</path><path>b.ts</path>", "read_files a.ts, b.ts"],
    [
      `<tool_call><ask_followup_question><question>${"x".repeat(200)}</question>`,
      `ask_followup_question ${"x".repeat(79)}…`,
    ],
    // After a bulk value starts, later elements may be inside it: no guess is shown.
    [
      "<tool_call><write_to_file><content><path>no</path></content><path>yes</path>",
      "write_to_file",
    ],
  ];
  for (const [text, want] of cases) {
    assert.equal(stream(perChar(text), SPECS).calls.at(-1), want);
    assert.equal(stream([text], SPECS).calls.at(-1), want);
  }
});

Deno.test("`push()` shows prose after a closed call at once, and `finalProse()` the rest", () => {
  const s = new CallScanner(SPECS);
  s.push("<tool_call><read_file><path>a</path></read_file></tool_call>\nNext");
  assert.equal(s.push(" step.").prose, " step.");
  s.finish();
  assert.equal(s.finalProse(), "");
  const t = new CallScanner(SPECS);
  const shown = t.push("<tool_call><read_file><path>a</path></read_file>\nNo closer.").prose;
  assert.equal(shown, "");
  assert.equal(t.finish().kind, "call");
  assert.equal(t.finalProse(), "\nNo closer.");
});

Deno.test("`push()` holds an opener after an open backtick until the line ends", () => {
  const s = new CallScanner(SPECS);
  assert.equal(s.push("Use `x <tool_call> y").prose, "Use `x ");
  assert.equal(s.push("` ok\n").prose, "<tool_call> y` ok\n");
  assert.deepEqual(s.finish(), { kind: "none" });
  const t = new CallScanner(SPECS);
  assert.equal(t.push("Odd ` <tool_call><read_file><path>q</path>").prose, "Odd ` ");
  assert.deepEqual(t.push("</read_file>\n"), { prose: "", call: "read_file q" });
  assert.equal(t.finish().kind, "call");
});

Deno.test("`finish()` returns the same result twice and `push()` after it throws", () => {
  const s = new CallScanner(SPECS);
  s.push("hello");
  const r = s.finish();
  assert.equal(s.finish(), r);
  assert.throws(() => s.push("more"), /after finish/);
  assert.deepEqual(new CallScanner(SPECS).finish(), { kind: "none" });
  assert.deepEqual(new CallScanner(SPECS).push(""), { prose: "" });
});

Deno.test("`parseReply()` errors name the tool and what was wrong", () => {
  const cases: [string, RegExp, string | undefined][] = [
    ["<tool_call><nope/></tool_call>", /after <tool_call>/, undefined],
    ["<tool_call><nope></nope></tool_call>", /Unknown tool "nope"/, "nope"],
    ["<tool_call>", /ended right after <tool_call>/, undefined],
    ["<tool_call><read_file><path>a", /ended before <\/read_file>/, "read_file"],
    ["<tool_call><read_file><path>a</read_file>", /<path> of read_file is not closed/, "read_file"],
    ["<tool_call><read_file></read_file></tool_call><tool_call>", /more than one/, "read_file"],
    ["<tool_call><write_to_file></write_to_file>", /missing <path>, <content>/, "write_to_file"],
  ];
  for (const [text, message, tool] of cases) {
    const r = parseReply(text, SPECS);
    assert.equal(r.kind, "error", text);
    if (r.kind !== "error") continue;
    assert.match(r.message, message);
    assert.equal(r.tool, tool);
  }
});

Deno.test("`parseReply()` learns tools from the specs it is given", () => {
  const text = "<tool_call><make_coffee><size>large</size></make_coffee></tool_call>";
  assert.equal(parseReply(text, SPECS).kind, "error");
  const specs = [{
    name: "make_coffee",
    params: [{ name: "size", description: "", required: true }],
  }];
  assert.deepEqual(parseReply(text, specs), {
    kind: "call",
    call: { tool: "make_coffee", params: { size: "large" } },
  });
});

Deno.test("`CallScanner` stays linear on a 1 MB line fed one character at a time", () => {
  const line = "x <b> & ` y ``".repeat(75_000);
  const replies = [
    "Look: `" + line, // an unclosed backtick: the whole line waits for its end
    "<tool_call><write_to_file><path>a</path><content>" + line + "</content></write_to_file>",
    "<thinking>" + line,
  ];
  for (const reply of replies) {
    const started = performance.now();
    const s = new CallScanner(SPECS);
    for (let i = 0; i < reply.length; i++) s.push(reply[i]);
    s.finish();
    const ms = performance.now() - started;
    assert.ok(ms < 8_000, `took ${ms.toFixed(0)} ms`);
  }
});
