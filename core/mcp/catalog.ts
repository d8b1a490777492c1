/**
 * Progressive disclosure of MCP tools. The system prompt gets only each
 * tool's name and a one-line description of at most 100 characters (names
 * alone when even that would pass the budget); the full parameters reach the
 * model through `mcp_describe`, and in the error of a call that gets them wrong.
 *
 * @module
 */
import type { ToolResult } from "../../interfaces/tool.ts";
import { formatCall } from "../protocol/feedback.ts";
import type { ServerView } from "./hub.ts";
import type { AdaptedTool } from "./tool.ts";

/** Longest description per tool in the prompt. */
export const MAX_LINE_DESCRIPTION = 100;
/** Characters the section may take before descriptions are dropped. */
export const SECTION_BUDGET = 6_000;

/** Shortens a description to its first line, at most `max` characters. */
export function oneLineDescription(text: string, max = MAX_LINE_DESCRIPTION): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  const sentence = line.slice(0, max).match(/^.*?[.!?](?=\s)/)?.[0];
  if (sentence && sentence.length >= 30) return sentence;
  return line.slice(0, max - 1).trimEnd() + "…";
}

/**
 * The "# MCP tools" section; empty when no server is configured. In plan
 * mode only read-only tools are listed (the others would be refused).
 */
export function renderMcpSection(servers: readonly ServerView[], mode: "agent" | "plan"): string {
  if (servers.length === 0) return "";
  const visible = (t: AdaptedTool) => mode === "agent" || t.readOnly;
  const usable = servers.filter((s) =>
    s.state === "ready" || s.state === "starting" || s.restartable
  );
  const tools = usable.flatMap((s) => s.tools).filter(visible);
  const withText = tools.map((t) => `- ${t.tool.name}: ${oneLineDescription(t.tool.description)}`);
  const long = withText.join("\n").length > SECTION_BUDGET;
  const lines = long ? tools.map((t) => `- ${t.tool.name}`) : withText;
  const head = [
    "# MCP tools",
    "Tools of the user's MCP servers, called like any tool. Their parameters are not listed here:",
    "call mcp_describe with the tool's name (or a server's name) before you first use one.",
    "Objects and arrays are written as JSON text inside their element.",
  ];
  if (mode === "plan") head.push("Plan mode: only the read-only MCP tools are listed.");
  if (long) head.push("Descriptions are left out to save room: mcp_describe gives them.");
  const state = servers.map((s) => `${s.name} (${stateText(s)})`).join(", ");
  return [...head, ...lines, `Servers: ${state}`].join("\n");
}

function stateText(s: ServerView): string {
  if (s.state === "failed") return `unavailable: ${s.error ?? "failed"}`;
  if (s.state === "starting") {
    // Known tools read the same starting or ready: the prompt stays put when a server answers.
    return s.tools.length ? `${s.tools.length} tools` : "starting";
  }
  return s.state === "ready" ? `${s.tools.length} tools` : s.state;
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
    const server = servers.find((s) => s.name === name);
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
