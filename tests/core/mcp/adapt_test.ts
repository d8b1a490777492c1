/** Adapting MCP tools: names, XML parameters from JSON Schema, validation naming the parameter, prompt lines. */
import assert from "node:assert/strict";
import { adaptTool } from "../../../core/mcp/tool.ts";
import { loadValidator } from "../../../core/mcp/args.ts";
import { mcpToolName } from "../../../core/mcp/names.ts";
import { oneLineDescription, renderMcpSection } from "../../../core/mcp/catalog.ts";
import { coerceArgs } from "../../../core/tools/dispatch.ts";
import { parseReply } from "../../../core/protocol/xml.ts";
import type { ServerView } from "../../../core/mcp/hub.ts";
import { resolveServer } from "../../../core/mcp/config.ts";

const schema = {
  type: "object",
  properties: {
    title: { type: "string", description: "The issue title" },
    count: { type: "integer", minimum: 1 },
    draft: { type: "boolean" },
    labels: { type: "array", items: { type: "string" } },
    "repo.name": { type: "string" },
    meta: { type: "object" },
  },
  required: ["title", "count"],
};

const adapted = adaptTool("git hub", false, {
  name: "create.issue",
  description: "Creates an issue",
  inputSchema: schema as never,
}, () => Promise.reject(new Error("not called")));

Deno.test("mcpToolName() cleans names to [A-Za-z0-9_-] and keeps them within 64 characters", () => {
  assert.equal(mcpToolName("git hub", "create.issue"), "mcp__git_hub__create_issue");
  const long = mcpToolName("server", "x".repeat(100));
  assert.equal(long.length, 64);
  assert.notEqual(long, mcpToolName("server", "x".repeat(99) + "y"));
});

Deno.test("adaptTool() turns the schema into XML parameters the scanner reads, JSON for arrays and objects", () => {
  const tool = adapted.tool;
  assert.equal(tool.name, "mcp__git_hub__create_issue");
  assert.deepEqual(tool.params.map((p) => p.name), [
    "title",
    "count",
    "draft",
    "labels",
    "repo_name",
    "meta",
  ]);
  const reply = "<tool_call>\n<mcp__git_hub__create_issue>\n<title>Bug: a < b</title>\n" +
    '<count>2</count>\n<draft>true</draft>\n<labels>["bug", "ui"]</labels>\n' +
    '<repo_name>minoc</repo_name>\n<meta>{"k": 1}</meta>\n' +
    "</mcp__git_hub__create_issue>\n</tool_call>";
  const parsed = parseReply(reply, [tool]);
  if (parsed.kind !== "call") throw new Error(`not parsed: ${JSON.stringify(parsed)}`);
  const c = coerceArgs(tool, parsed.call);
  assert.ok(c.ok, JSON.stringify(c));
  assert.deepEqual(c.args, {
    title: "Bug: a < b",
    count: 2,
    draft: true,
    labels: ["bug", "ui"],
    "repo.name": "minoc",
    meta: { k: 1 },
  });
});

Deno.test("coerceArgs() on an MCP tool names the parameter that is wrong or missing", async () => {
  await loadValidator();
  const tool = adapted.tool;
  const bad = (params: Record<string, string>) => {
    const r = coerceArgs(tool, { tool: tool.name, params });
    assert.equal(r.ok, false);
    return (r as { message: string }).message;
  };
  assert.equal(bad({ count: "1" }), "missing parameter <title>");
  assert.match(bad({ title: "t", count: "many" }), /^count: expected integer/);
  assert.match(bad({ title: "t", count: "0" }), /^count: must be >= 1/);
  assert.match(bad({ title: "t", count: "1", labels: "bug" }), /^labels: expected a JSON array/);
  assert.match(bad({ title: "t", count: "1", labels: "[1]" }), /^labels\.0: must be string/);
});

function view(name: string, tools: ReturnType<typeof adaptTool>[]): ServerView {
  const config = resolveServer(name, { command: "x" }, "home", "/f", {});
  return { name, config, state: "ready", transport: "stdio", tools, restartable: false };
}

Deno.test("renderMcpSection() lists names with descriptions of at most 100 characters, read-only ones in plan mode", () => {
  const long = adaptTool("s", false, {
    name: "long",
    description: "word ".repeat(80),
    inputSchema: { type: "object" },
  }, () => Promise.reject(new Error("x")));
  const ro = adaptTool("s", false, {
    name: "look",
    description: "Looks",
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: true },
  }, () => Promise.reject(new Error("x")));
  const text = renderMcpSection([view("s", [long, ro])], "agent");
  const line = text.split("\n").find((l) => l.startsWith("- mcp__s__long: "))!;
  assert.ok(line.length - "- mcp__s__long: ".length <= 100, line);
  assert.doesNotMatch(text, /<mcp__s__long>/);
  const plan = renderMcpSection([view("s", [long, ro])], "plan");
  assert.match(plan, /- mcp__s__look: Looks/);
  assert.doesNotMatch(plan, /mcp__s__long/);
  assert.equal(oneLineDescription("Short.\nSecond line"), "Short. Second line");
});

Deno.test("renderMcpSection() drops descriptions when dozens of tools would pass the budget", () => {
  const many = Array.from({ length: 120 }, (_, i) =>
    adaptTool("big", false, {
      name: `tool_${i}`,
      description: "A tool that does a thing with a fairly long description of what it does",
      inputSchema: { type: "object" },
    }, () => Promise.reject(new Error("x"))));
  const text = renderMcpSection([view("big", many)], "agent");
  assert.match(text, /- mcp__big__tool_119\n/);
  assert.doesNotMatch(text, /fairly long/);
  assert.ok(text.length < 4_000, `${text.length} characters`);
});
