/**
 * The messages that drive a Plan → Act → Reflect workflow over the normal
 * agent loop, and the readers of the JSON the model answers with.
 *
 * @module
 */
import type { BlackboardEntry } from "../../interfaces/tool.ts";
import { renderToolDocs } from "../protocol/tool_docs.ts";
import { workflowTools } from "../tools/mod.ts";
import { formatBlackboard } from "../tools/blackboard.ts";
import type { BudgetTracker } from "./workflow_budget.ts";

/** One step of a plan. */
export interface PlanStep {
  /** The skill or tool the step uses. */
  use: string;
  why: string;
  inputs: string[];
  outputs: string[];
}

/** The plan: steps, success criteria, and at most one question for the user. */
export interface Plan {
  steps: PlanStep[];
  criteria: string[];
  question?: string;
}

/** The reflection: whether the criteria hold, and advice when they do not. */
export interface Reflection {
  ok: boolean;
  checks: { criterion: string; ok: boolean; evidence: string }[];
  advice: string;
}

/** The first message: plan, read only. */
export function planMessage(goal: string): string {
  return `[Workflow · Plan]
Goal: ${goal}

Plan before doing anything. You may read (use_skill, read_file, list_files, search_files) but change nothing yet.
Then answer, without a tool call, with the plan as one JSON object in a \`\`\`json block:
{"steps": [{"use": "<skill or tool>", "why": "<reason>", "inputs": ["..."], "outputs": ["..."]}],
 "criteria": ["<a success criterion that can be checked>"],
 "question": "<one question for the user if an input you need is missing, else empty>"}`;
}

/** The act message: carry the plan out within the budgets, using the blackboard. */
export function actMessage(plan: Plan, answer: string | undefined, spend: BudgetTracker): string {
  const b = spend.budgets;
  const asked = plan.question && answer !== undefined
    ? `\nYou asked: ${plan.question}\nAnswer: ${answer}\n`
    : "";
  return `[Workflow · Act]${asked}
Carry out the plan step by step, choosing the skills and tools and their order. Budgets for the whole workflow: ${b.maxToolCalls} tool calls, ${b.maxTokens} tokens, ${b.maxSeconds} s (spent so far: ${
    spentText(spend)
  }).
Register every intermediate artifact with blackboard_put as soon as it exists; later steps read them with blackboard_get. Files you produce belong under build/.
When every step is done, or you cannot go on, answer with a short summary without a tool call.

Workflow tools:
${renderToolDocs(workflowTools)}`;
}

/** The reflect message: check the artifacts against the criteria, read only. */
export function reflectMessage(plan: Plan, entries: readonly BlackboardEntry[]): string {
  const criteria = plan.criteria.length
    ? plan.criteria.map((c, i) => `${i + 1}. ${c}`).join("\n")
    : "(no criteria were given: check the artifacts against the goal)";
  return `[Workflow · Reflect]
Check the artifacts against the success criteria. You may read files; change nothing.
Blackboard:
${formatBlackboard(entries)}
Criteria:
${criteria}
Answer, without a tool call, with one JSON object in a \`\`\`json block:
{"ok": true or false, "checks": [{"criterion": "...", "ok": true, "evidence": "..."}], "advice": "<what to fix when not ok>"}`;
}

/** The retry message: one more act with the reflection's advice. */
export function retryMessage(r: Reflection, spend: BudgetTracker): string {
  const failed = r.checks.filter((c) => !c.ok).map((c) => `- ${c.criterion}: ${c.evidence}`);
  return `[Workflow · Act (retry)]
The check failed.${failed.length ? `\n${failed.join("\n")}` : ""}
Advice: ${r.advice || "(none given)"}
Fix this within what is left of the budgets (spent: ${
    spentText(spend)
  }). Register new or changed artifacts with blackboard_put, then answer with a short summary without a tool call.`;
}

/** The report message: what was produced, or why it did not converge and what to do next. */
export function reportMessage(converged: boolean, stopped: string | undefined): string {
  const what = converged
    ? "what was produced (with paths) and how it meets the criteria"
    : "what was produced, why the workflow could not converge, and what to do next";
  return `[Workflow · Report]${stopped ? `\nNote: the workflow stopped early (${stopped}).` : ""}
Write the final report for the user: ${what}. Plain text, no tool call.`;
}

function spentText(spend: BudgetTracker): string {
  const s = spend.spent();
  return `${s.toolCalls} tool calls, ${s.tokens} tokens, ${Math.round(s.seconds)} s`;
}

/** The JSON object in a reply: a ```json block, else the outermost braces. */
export function extractJson(text: string): Record<string, unknown> | null {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(text);
  const candidates = fenced ? [fenced[1]] : [];
  const a = text.indexOf("{");
  const b = text.lastIndexOf("}");
  if (a >= 0 && b > a) candidates.push(text.slice(a, b + 1));
  for (const c of candidates) {
    try {
      const v = JSON.parse(c);
      if (typeof v === "object" && v !== null && !Array.isArray(v)) return v;
    } catch {
      // try the next candidate
    }
  }
  return null;
}

/** Reads a plan from a reply; a reply without JSON is one step described by its text. */
export function readPlan(text: string): Plan {
  const v = extractJson(text);
  if (!v) {
    return {
      steps: [{ use: "", why: text.trim().slice(0, 500), inputs: [], outputs: [] }],
      criteria: [],
    };
  }
  const steps = Array.isArray(v.steps) ? v.steps : [];
  const question = typeof v.question === "string" && v.question.trim()
    ? v.question.trim()
    : undefined;
  return {
    steps: steps.filter(isRecord).map((s) => ({
      use: String(s.use ?? s.skill ?? s.tool ?? ""),
      why: String(s.why ?? ""),
      inputs: strings(s.inputs),
      outputs: strings(s.outputs),
    })),
    criteria: strings(v.criteria),
    ...(question ? { question } : {}),
  };
}

/** Reads a reflection; a reply without JSON counts as not ok, with its text as advice. */
export function readReflection(text: string): Reflection {
  const v = extractJson(text);
  if (!v) return { ok: false, checks: [], advice: text.trim().slice(0, 1000) };
  const checks = (Array.isArray(v.checks) ? v.checks : []).filter(isRecord).map((c) => ({
    criterion: String(c.criterion ?? ""),
    ok: c.ok === true,
    evidence: String(c.evidence ?? ""),
  }));
  return { ok: v.ok === true, checks, advice: typeof v.advice === "string" ? v.advice : "" };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function strings(v: unknown): string[] {
  if (typeof v === "string") return v.trim() ? [v.trim()] : [];
  return Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))) : [];
}
