import assert from "node:assert/strict";
import { renderProtocolRules, renderToolDocs } from "../../../core/protocol/tool_docs.ts";
import { parseReply } from "../../../core/protocol/xml.ts";
import { exampleParams, SPECS, TOOLS, TWENTY_TOOLS } from "./specs.ts";

Deno.test("`renderToolDocs()` documents every tool, parameter and example", () => {
  const docs = renderToolDocs(TOOLS);
  for (const tool of TOOLS) {
    assert.ok(docs.includes(`\n${tool.description}\n`), tool.name);
    for (const p of tool.params) {
      const marks = `${p.multiple ? "..." : ""}${p.required ? "" : "?"}`;
      assert.ok(
        docs.includes(`- ${p.name}${marks}: ${p.description}\n`),
        `${tool.name}: ${p.name}`,
      );
    }
  }
  assert.match(
    docs,
    /^## read_file\n[^\n]+\n- path: [^\n]+\n- start_line\?: [^\n]+\n- end_line\?: /,
  );
  assert.match(docs, /\n## read_files\n[^\n]+\n- path\.\.\.: /);
  assert.match(
    docs,
    /\n## execute_command\n[^\n]+\n- command: [^\n]+\n- requires_approval\?: /,
  );
  assert.match(
    docs,
    /\n<tool_call><read_file><path>src\/main.ts<\/path><\/read_file><\/tool_call>/,
  );
  assert.match(
    docs,
    /\n<tool_call>\n<write_to_file>\n<path>notes.md<\/path>\n<content>\n/,
  );
});

Deno.test("`renderToolDocs()` examples parse as calls of their own tool", () => {
  const docs = renderToolDocs(TOOLS);
  const sections = docs.split(/\n\n(?=## )/);
  assert.equal(sections.length, TOOLS.length);
  sections.forEach((section, k) => {
    const example = section.slice(section.indexOf("<tool_call>"));
    assert.equal(parseReply(section, SPECS).kind, "call", TOOLS[k].name);
    assert.deepEqual(parseReply(example, SPECS), {
      kind: "call",
      call: { tool: TOOLS[k].name, params: exampleParams(TOOLS[k]) },
    });
  });
});

Deno.test("`renderProtocolRules()` states one call per reply and what a reply without a call means", () => {
  const rules = renderProtocolRules();
  assert.match(rules, /one tool call per reply/);
  assert.match(rules, /without a tool call is your final answer/);
  assert.match(rules, /<tool_call>\n<tool_name>/);
  // The rules mention `<tool_call>` only in forms that are not calls themselves.
  assert.equal(
    parseReply(rules.replace(/<tool_call>\n<tool_name>[^]*?<\/tool_call>/, ""), SPECS).kind,
    "none",
  );
});

Deno.test("`renderProtocolRules()` and `renderToolDocs()` stay compact for twenty tools", () => {
  const size = renderProtocolRules().length + 2 + renderToolDocs(TWENTY_TOOLS).length;
  assert.equal(TWENTY_TOOLS.length, 20);
  assert.ok(size < 6_500, `${size} characters`);
});
