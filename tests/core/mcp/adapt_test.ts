/** Adapting MCP tools: names, XML parameters from JSON Schema, validation naming the parameter, prompt lines. */
import assert from "node:assert/strict";
import { adaptTool } from "../../../core/mcp/tool.ts";
import { loadValidator } from "../../../core/mcp/args.ts";
import { mcpToolName } from "../../../core/protocol/mcp_names.ts";
import {
  describeTools,
  LIST_BUDGET,
  oneLineDescription,
  renderMcpSection,
} from "../../../core/mcp/catalog.ts";
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

Deno.test("renderMcpSection() lists each server's tools by name with descriptions of at most 100 characters, read-only ones in plan mode", () => {
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
  assert.match(text, /^# MCP tools\n/);
  assert.match(text, /mcp__<server>__<tool> \(mcp__s__long\)/, "how to name one, with a real name");
  const line = text.split("\n").find((l) => l.startsWith("- s: long ("))!;
  const description = line.slice("- s: long (".length, line.indexOf(")"));
  assert.ok(description.length <= 100 && description.endsWith("…"), line);
  assert.match(line, /; look \(Looks\)$/);
  assert.doesNotMatch(text, /<mcp__s__long>/);
  const plan = renderMcpSection([view("s", [long, ro])], "plan");
  assert.match(plan, /\n- s: look \(Looks\)$/);
  assert.match(plan, /Plan mode: only the read-only MCP tools are listed/);
  assert.doesNotMatch(plan, /long/);
  assert.match(renderMcpSection([view("s", [long])], "plan"), /\n- s: no read-only tools$/);
  assert.equal(oneLineDescription("Short.\nSecond line"), "Short. Second line");
});

Deno.test("renderMcpSection() shortens descriptions, then drops them, when the tool lists would pass the budget", () => {
  const tools = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      adaptTool("big", false, {
        name: `tool_${i}`,
        description: "A tool that does a thing. It has a fairly long description of what it does " +
          "and of every option it takes, so that the line is long.",
        inputSchema: { type: "object" },
      }, () => Promise.reject(new Error("x"))));
  const few = renderMcpSection([view("big", tools(2))], "agent");
  assert.match(few, /tool_0 \(A tool that does a thing\. It has a fairly long description/);
  const some = renderMcpSection([view("big", tools(15))], "agent");
  const cut = [...some.matchAll(/tool_\d+ \(([^)]*)\)/g)].map((m) => m[1]);
  assert.equal(cut.length, 15);
  for (const d of cut) assert.ok(d.length <= 60 && d.endsWith("…") && d.length > 40, d);
  assert.ok(some.split("\n").slice(2).join("\n").length <= LIST_BUDGET);
  const many = renderMcpSection([view("big", tools(120))], "agent");
  assert.match(many, /\n- big: tool_0, tool_1, [^\n]*, tool_119$/);
  assert.doesNotMatch(many, /fairly long/);
  assert.ok(many.length < 1_600, `${many.length} characters`);
});

Deno.test("renderMcpSection() names servers as their tools do and gives the state of those with nothing to list", () => {
  const t = adaptTool("git hub", false, {
    name: "create.issue",
    description: "Creates an issue",
    inputSchema: { type: "object" },
  }, () => Promise.reject(new Error("x")));
  const failed: ServerView = { ...view("down", []), state: "failed", error: "spawn ENOENT" };
  const starting: ServerView = { ...view("slow", []), state: "starting" };
  const text = renderMcpSection([view("git hub", [t]), failed, starting], "agent");
  assert.match(text, /\n- git_hub: create_issue \(Creates an issue\)\n/);
  assert.match(text, /\n- down: unavailable: spawn ENOENT\n- slow: starting$/);
  assert.equal(renderMcpSection([], "agent"), "");
  const described = describeTools([view("git hub", [t])], ["git_hub"]);
  assert.ok(described.ok, described.output);
  assert.match(described.output, /^## mcp__git_hub__create_issue\n/);
});
