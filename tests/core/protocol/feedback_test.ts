import assert from "node:assert/strict";
import type { ParseResult } from "../../../interfaces/tool.ts";
import { formatCall, parseErrorMessage } from "../../../core/protocol/feedback.ts";
import { parseReply } from "../../../core/protocol/xml.ts";
import { exampleParams, SPECS, TOOLS, TWENTY_TOOLS } from "./specs.ts";

type ErrorResult = Extract<ParseResult, { kind: "error" }>;

function errorOf(text: string): ErrorResult {
  const r = parseReply(text, SPECS);
  assert.equal(r.kind, "error", text);
  return r as ErrorResult;
}

/** The example call inside a feedback message, parsed back. */
function exampleIn(message: string): ParseResult {
  const start = message.indexOf("A correct call:\n<tool_call>") + "A correct call:\n".length;
  const end = message.lastIndexOf("</tool_call>") + "</tool_call>".length;
  assert.ok(start > 20 && end > start, message);
  return parseReply(message.slice(start, end), SPECS);
}

Deno.test("`formatCall()` renders a call that parses back to the same parameters", () => {
  const values = [
    "plain",
    "",
    " spaced ",
    "two\nlines",
    "\nleading",
    "trailing\n",
    "a\r\nb",
    "<b>&amp;</b>",
  ];
  for (const v of values) {
    const text = formatCall("write_to_file", { path: "p.txt", content: v });
    assert.deepEqual(parseReply(text, SPECS), {
      kind: "call",
      call: { tool: "write_to_file", params: { path: "p.txt", content: v } },
    }, JSON.stringify(v));
  }
  const many = formatCall("read_files", { path: ["a.ts", "b.ts"] });
  assert.equal(
    many,
    "<tool_call>\n<read_files>\n<path>a.ts</path>\n<path>b.ts</path>\n</read_files>\n</tool_call>",
  );
});

Deno.test("`formatCall()` of every tool's example is a valid call of that tool", () => {
  for (const tool of TWENTY_TOOLS) {
    const specs = TWENTY_TOOLS.map((t) => ({ name: t.name, params: t.params }));
    const r = parseReply(formatCall(tool.name, tool.example), specs);
    assert.deepEqual(r, { kind: "call", call: { tool: tool.name, params: exampleParams(tool) } });
  }
});

Deno.test("`parseErrorMessage()` lists the known tools and shows the closest tool when the name is unknown", () => {
  const msg = parseErrorMessage(
    errorOf("<tool_call><write_file><path>a</path></write_file>"),
    TOOLS,
  );
  assert.match(msg, /unknown_tool/);
  assert.match(msg, /"write_file" is not a tool/);
  for (const t of TOOLS) assert.ok(msg.includes(t.name), t.name);
  const example = exampleIn(msg);
  assert.equal(example.kind === "call" && example.call.tool, "write_to_file");
});

Deno.test("`parseErrorMessage()` explains a tool element missing after the opener", () => {
  const msg = parseErrorMessage(errorOf("<tool_call>\n- read the file\n</tool_call>"), TOOLS);
  assert.match(msg, /must be followed directly by a tool element/);
  assert.equal(exampleIn(msg).kind, "call");
});

Deno.test("`parseErrorMessage()` says what to close when the call is unclosed", () => {
  const msg = parseErrorMessage(
    errorOf("<tool_call><write_to_file><path>a</path><content>x"),
    TOOLS,
  );
  assert.match(msg, /unclosed/);
  assert.match(msg, /<\/write_to_file> and <\/tool_call>/);
  assert.deepEqual(exampleIn(msg), {
    kind: "call",
    call: { tool: "write_to_file", params: TOOLS[2].example },
  });
});

Deno.test("`parseErrorMessage()` asks for one call per reply after multiple calls", () => {
  const two = "<tool_call><read_file><path>a</path></read_file></tool_call>\n<tool_call>";
  const msg = parseErrorMessage(errorOf(two), TOOLS);
  assert.match(msg, /multiple_tool_calls/);
  assert.match(msg, /one call/i);
  assert.equal(exampleIn(msg).kind, "call");
});

Deno.test("`parseErrorMessage()` names the missing parameter and lists the tool's parameters with what they hold", () => {
  const msg = parseErrorMessage(errorOf("<tool_call><execute_command></execute_command>"), TOOLS);
  assert.match(msg, /missing_param/);
  assert.match(msg, /missing <command>/);
  const tool = TOOLS.find((t) => t.name === "execute_command")!;
  for (const p of tool.params) {
    const mark = p.required ? "" : " (optional)";
    assert.ok(msg.includes(`<${p.name}>${mark}: ${p.description}`), `${p.name}: ${msg}`);
  }
  assert.match(msg, /<requires_approval> \(optional\): /);
  const example = exampleIn(msg);
  assert.equal(example.kind === "call" && example.call.params.command, "npm test");
});

Deno.test("`parseErrorMessage()` shows what a dialect call meant in the canonical form when it is rejected", () => {
  const msg = parseErrorMessage(
    errorOf(
      '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.ts"}}\n</tool_call>\n' +
        "<tool_call><read_file><path>b.ts</path></read_file></tool_call>",
    ),
    TOOLS,
  );
  assert.match(msg, /multiple_tool_calls/);
  assert.match(
    msg,
    /What you meant, in the right form:\n<tool_call>\n<read_file>\n<path>a\.ts<\/path>/,
  );
});

Deno.test("`parseErrorMessage()` names the dialect and shows the canonical form of a call missing a parameter", () => {
  const msg = parseErrorMessage(
    errorOf('[TOOL_CALLS][{"name": "search_files", "arguments": {"directory": "src"}}]'),
    TOOLS,
  );
  assert.match(msg, /missing <pattern>/);
  assert.match(msg, /"mistral" format/);
  assert.match(msg, /<search_files>\n<directory>src<\/directory>\n<\/search_files>/);
});

Deno.test("`parseErrorMessage()` names the arguments a dialect call gave that the tool does not take", () => {
  const msg = parseErrorMessage(
    errorOf('<tool_call>\n{"name": "read_file", "arguments": {"file_path": "a.ts"}}\n</tool_call>'),
    TOOLS,
  );
  assert.match(msg, /read_file is missing <path> \(it does not take "file_path"\)/);
  assert.match(msg, /A correct call:\n<tool_call>\n<read_file>\n<path>src\/main\.ts<\/path>/);
});
