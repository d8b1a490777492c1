/**
 * Progressive disclosure of MCP tools. The system prompt lists each server's
 * tools by name, with one-line descriptions while they fit a small budget
 * (shortened first, then left out); the full descriptions and parameters
 * reach the model through `mcp_describe`, and in the error of a call that
 * gets them wrong.
 *
 * @module
 */
import type { ToolResult } from "../../interfaces/tool.ts";
import { formatCall } from "../protocol/feedback.ts";
import type { ServerView } from "./hub.ts";
import { cleanName, serverPrefix } from "../protocol/mcp_names.ts";
import type { AdaptedTool } from "./tool.ts";

/** Longest description per tool in the prompt. */
export const MAX_LINE_DESCRIPTION = 100;
/** Characters the tool lists may take with descriptions; over it they are shortened, then dropped. */
export const LIST_BUDGET = 1_200;
/** Description lengths tried, longest first; 0 lists names only. */
const LENGTHS = [MAX_LINE_DESCRIPTION, 60, 0];

/** Shortens a description to its first line, at most `max` characters. */
export function oneLineDescription(text: string, max = MAX_LINE_DESCRIPTION): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  const sentence = line.slice(0, max).match(/^.*?[.!?](?=\s)/)?.[0];
  if (sentence && sentence.length >= Math.min(30, max / 2)) return sentence;
  return line.slice(0, max - 1).trimEnd() + "…";
}

/**
 * The "# MCP tools" section; empty when no server is configured. One line
 * per server: its name in tool names, then its tools (their names without
 * the `mcp__<server>__` prefix) or its state. In plan mode only read-only
 * tools are listed (the others would be refused).
 */
export function renderMcpSection(servers: readonly ServerView[], mode: "agent" | "plan"): string {
  if (servers.length === 0) return "";
  const visible = (t: AdaptedTool) => mode === "agent" || t.readOnly;
  const lists = (max: number) =>
    servers.map((s) => serverLine(s, usable(s) ? s.tools.filter(visible) : [], max));
  const max = LENGTHS.find((n) => n === 0 || lists(n).join("\n").length <= LIST_BUDGET) ?? 0;
  const example = servers.flatMap((s) => usable(s) ? s.tools.filter(visible) : [])[0];
  const head = [
    "# MCP tools",
    "Call an MCP tool by its full name, mcp__<server>__<tool>" +
    `${example ? ` (${example.tool.name})` : ""}; objects and arrays go as JSON text.`,
  ];
  if (mode === "plan") head.push("Plan mode: only the read-only MCP tools are listed.");
  return [...head, ...lists(max)].join("\n");
}

function usable(s: ServerView): boolean {
  return s.state === "ready" || s.state === "starting" || s.restartable;
}

/** `- server: tool (description); tool …`, or the server's state when it has nothing to list. */
function serverLine(s: ServerView, tools: readonly AdaptedTool[], max: number): string {
  const key = cleanName(s.name);
  if (s.state === "failed") return `- ${key}: unavailable: ${s.error ?? "failed"}`;
  if (tools.length === 0) {
    const unlisted = s.tools.length > 0 && usable(s);
    const why = unlisted ? "no read-only tools" : s.state === "ready" ? "no tools" : s.state;
    return `- ${key}: ${why}`;
  }
  const prefix = serverPrefix(s.name);
  const items = tools.map((t) => {
    const name = t.tool.name.startsWith(prefix) ? t.tool.name.slice(prefix.length) : t.tool.name;
    return max > 0 ? `${name} (${oneLineDescription(t.tool.description, max)})` : name;
  });
  return `- ${key}: ${items.join(max > 0 ? "; " : ", ")}`;
}

/**
 * The full docs of tools by name, or of every tool of a server by its name:
 * description, parameters with types, and an example call.
 */
export function describeTools(
  servers: readonly ServerView[],
  names: readonly string[],
): ToolResult {
  const all = servers.flatMap((s) => s.tools);
  const out: string[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const server = servers.find((s) => s.name === name || cleanName(s.name) === name);
    const hits = server
      ? server.tools
      : all.filter((t) => t.tool.name === name || t.original === name);
    if (server && server.state === "failed") {
      out.push(`Server ${name} is unavailable: ${server.error}`);
    } else if (hits.length === 0) unknown.push(name);
    for (const t of hits) out.push(toolDoc(t));
  }
  if (unknown.length > 0) {
    const known = all.map((t) => t.tool.name).join(", ") || "none";
    const text = `No MCP tool or server is called ${unknown.map((n) => `"${n}"`).join(", ")}: ` +
      `the MCP tools are ${known}`;
    if (out.length === 0) return { ok: false, code: "not_found", output: text, display: text };
    out.push(text);
  }
  return { ok: true, output: out.join("\n\n"), display: `described ${names.join(", ")}` };
}

/** One tool's full docs. */
export function toolDoc(t: AdaptedTool): string {
  const lines = [`## ${t.tool.name}`, t.tool.description.trim()];
  if (t.readOnly) lines.push("(read-only)");
  if (t.params.length === 0) lines.push("No parameters.");
  for (const p of t.params) {
    lines.push(`- ${p.spec.name}${p.spec.required ? "" : "?"}: ${p.spec.description}`);
  }
  lines.push(formatCall(t.tool.name, t.tool.example));
  return lines.join("\n");
}
