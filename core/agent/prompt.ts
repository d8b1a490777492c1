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
}

const ROLE = `You are minoc, a coding agent working in the user's terminal. You read, search, ` +
  `write and edit files and run commands in the working directory to do what the user asks. ` +
  `The user sees every call and may deny it.`;

const WORK = `# How to work
1. Think about the request; if it is unclear in a way that matters, ask one question.
2. Explore first (list, search, read). Never write while exploring.
3. Make a short plan, then implement it: read a file before you change it; create new files with write_to_file.
4. Verify: run the project's tests or build when it has them.
5. Finish with attempt_completion, or answer in plain text when no change was asked for.
When you add to a document, follow its existing structure (headings, lists, "- [ ]" items).`;

const SAFETY = `# Safety
Stay inside the working directory unless asked otherwise. Never run destructive commands on ` +
  `system paths, escalate privileges, or exfiltrate secrets. If a call is denied, do not retry ` +
  `the same call: adapt, or ask the user.`;

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
    renderToolDocs(tools),
    p.mode === "plan" ? PLAN : WORK,
    SAFETY,
    workspace(p),
  ];
  if (p.projectInstructions?.trim()) {
    common.push(`# Project instructions\n${p.projectInstructions.trim()}`);
  }
  const custom = p.customInstructions?.trim();
  return common.join("\n\n") + (custom ? `\n\n${custom}` : "");
}

function workspace(p: PromptContext): string {
  return `# Workspace\nWorking directory: ${p.cwd}\nOperating system: ${p.os}\nDate: ${p.date}`;
}
