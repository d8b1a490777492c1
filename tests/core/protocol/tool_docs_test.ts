import assert from "node:assert/strict";
import {
  exampleCall,
  renderProtocolRules,
  renderToolDocs,
  usageLine,
} from "../../../core/protocol/tool_docs.ts";
import { parseReply } from "../../../core/protocol/xml.ts";
import { exampleParams, SPECS, TOOLS, TWENTY_TOOLS } from "./specs.ts";

Deno.test("`renderToolDocs()` gives each tool one usage line naming every parameter once, with its description", () => {
  const docs = renderToolDocs(TOOLS);
  const lines = docs.split("\n");
  for (const tool of TOOLS) {
    const marks = tool.params.map((p) =>
      ` <${p.name}>${p.multiple ? "..." : ""}${p.required ? "" : "?"}`
    );
    const line = `${tool.name}${marks.join("")}: ${tool.description}`;
    assert.equal(lines.filter((l) => l === line).length, 1, line);
    assert.equal(usageLine(tool), line);
    for (const p of tool.params) {
      assert.equal(line.split(`<${p.name}>`).length, 2, `${tool.name}: ${p.name} named once`);
    }
  }
  assert.equal(lines.slice(0, TOOLS.length).join("\n"), TOOLS.map(usageLine).join("\n"));
  assert.match(docs, /^read_file <path> <start_line>\? <end_line>\?: [^\n]+\n/);
  assert.match(docs, /\nread_files <path>\.\.\.: /);
  assert.match(docs, /\nexecute_command <command> <requires_approval>\? <timeout>\?: /);
});

Deno.test("`renderToolDocs()` usage lines are never taken for a call", () => {
  const lines = TOOLS.map(usageLine).join("\n");
  assert.equal(parseReply(lines, SPECS).kind, "none");
  for (const line of lines.split("\n")) assert.equal(parseReply(line, SPECS).kind, "none", line);
});

Deno.test("`renderToolDocs()` shows the first tool's example by default, else those named, each a call of its own tool", () => {
  const byDefault = renderToolDocs(TOOLS);
  assert.match(
    byDefault,
    /\nExample:\n<tool_call><read_file><path>src\/main.ts<\/path><\/read_file><\/tool_call>$/,
  );
  const all = renderToolDocs(TOOLS, TOOLS.map((t) => t.name));
  const examples = all.slice(all.indexOf("\nExamples:\n") + "\nExamples:\n".length);
  const calls = examples.split(/(?<=<\/tool_call>)\n/);
  assert.equal(calls.length, TOOLS.length);
  calls.forEach((text, k) => {
    assert.equal(text, exampleCall(TOOLS[k]));
    assert.deepEqual(parseReply(text, SPECS), {
      kind: "call",
      call: { tool: TOOLS[k].name, params: exampleParams(TOOLS[k]) },
    });
  });
  assert.match(all, /\n<tool_call>\n<write_to_file>\n<path>notes.md<\/path>\n<content>\n/);
  const picked = renderToolDocs(TOOLS, ["write_to_file", "no_such_tool"]);
  assert.equal(picked.split("<tool_call>").length, 2);
  assert.match(picked, /\nExample:\n<tool_call>\n<write_to_file>\n/);
  assert.doesNotMatch(renderToolDocs(TOOLS, []), /Example|<tool_call>/);
});

Deno.test("`renderProtocolRules()` states one call per reply and what a reply without a call means", () => {
  const rules = renderProtocolRules();
  assert.match(rules, /one tool call per reply; then stop/);
  assert.match(rules, /without a tool call is your final answer/);
  assert.match(rules, /<tool_call>\n<tool_name>/);
  assert.match(rules, /no escaping, no CDATA/);
  assert.match(rules, /Paths are relative to the working directory/);
  assert.match(rules, /put it in backticks/);
  assert.match(rules, /\? optional, \.\.\. repeatable/);
  // The rules mention `<tool_call>` only in forms that are not calls themselves.
  assert.equal(
    parseReply(rules.replace(/<tool_call>\n<tool_name>[^]*?<\/tool_call>/, ""), SPECS).kind,
    "none",
  );
});

Deno.test("`renderProtocolRules()` and `renderToolDocs()` stay compact for twenty tools", () => {
  const size = renderProtocolRules().length + 2 + renderToolDocs(TWENTY_TOOLS).length;
  assert.equal(TWENTY_TOOLS.length, 20);
  assert.ok(size < 3_000, `${size} characters`);
});
