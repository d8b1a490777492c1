/**
 * The system prompt: a fixed common part (role, tool protocol, tool docs,
 * safety, way of working) + "\n\n" + the model's custom instructions, plus the
 * dynamic context of this session (workspace facts, project instructions).
 *
 * @module
 */
import type { AnyTool } from "../../interfaces/tool.ts";
import { renderProtocolRules, renderToolDocs } from "../protocol/tool_docs.ts";

/** The session facts the prompt mentions. */
export interface PromptContext {
  tools: readonly AnyTool[];
  mode: "agent" | "plan";
  cwd: string;
  os: string;
  date: string;
  /** Per-model custom instructions; appended, never replacing the common part. */
  customInstructions?: string;
  /** Project instructions (AGENTS.md and the like). */
  projectInstructions?: string;
  /** The project analysis section ("# Project ..."), see core/agent/project.ts. */
  project?: string;
  /** The L1 skill index ("# Skills ..."), see core/skills/catalog.ts. */
  skills?: string;
  /** The MCP tool list ("# MCP tools ..."), see core/mcp/catalog.ts. */
  mcp?: string;
}

/** The tools whose example call the prompt shows: the SEARCH/REPLACE layout. */
const EXAMPLES = ["replace_in_file"];

const ROLE = `You are minoc, a coding agent in the user's terminal; the user sees every ` +
  `tool call and may deny it.`;

const WORK = `# How to work
1. Think: if something that matters is unclear, ask one question.
2. Plan: a short numbered plan.
3. Explore: list, search and read what the plan touches. Never write while exploring.
4. Implement: read each existing file right before you edit it.
5. Verify: run the project's tests or build (see Commands, if any); fix what fails.
6. Report: finish with attempt_completion (what changed, what the checks said), then wait. If no change was asked for, answer in plain text.
In documents, add under the right heading, as the same kind of item ("- [ ]" task, numbered step, bullet).`;

const SAFETY = `# Safety
Stay in the working directory unless asked. Never run destructive commands on system paths, ` +
  `escalate privileges or leak secrets. If a call is denied, do not repeat it: adapt or ask.`;

const PLAN = `# Plan mode
You are in plan mode: only reading tools are available. Explore the code, then answer with a ` +
  `numbered plan naming each file to create or change and the change. Do not try to write.`;

/** Builds the system prompt for one session. */
export function buildSystemPrompt(p: PromptContext): string {
  const tools = p.mode === "plan"
    ? p.tools.filter((t) => t.kind === "read" || t.kind === "meta")
    : p.tools;
  const common = [
    ROLE,
    renderProtocolRules(),
    // Plan mode has no editing tool: it shows its first tool's call instead.
    renderToolDocs(tools, tools.some((t) => EXAMPLES.includes(t.name)) ? EXAMPLES : undefined),
    p.mode === "plan" ? PLAN : WORK,
    SAFETY,
    workspace(p),
  ];
  if (p.project?.trim()) common.push(p.project.trim());
  if (p.projectInstructions?.trim()) {
    common.push(`# Project instructions\n${p.projectInstructions.trim()}`);
  }
  if (p.skills?.trim()) common.push(p.skills.trim());
  if (p.mcp?.trim()) common.push(p.mcp.trim());
  const custom = p.customInstructions?.trim();
  return common.join("\n\n") + (custom ? `\n\n${custom}` : "");
}

function workspace(p: PromptContext): string {
  return `# Workspace\nWorking directory: ${p.cwd}\nOperating system: ${p.os}\nDate: ${p.date}`;
}
