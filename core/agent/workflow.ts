/**
 * Plan → Act → Reflect over the normal agent loop. Each phase is one task
 * of the loop driven by a message (workflow_prompts.ts):
 *
 * 1. Plan (read only): steps (skill or tool, why, inputs, outputs) and
 *    success criteria; a missing input is asked of the user once.
 * 2. Act: within budgets (tool calls, tokens, time; spent shown after every
 *    call), artifacts registered on a blackboard that later steps read.
 * 3. Reflect (read only): the artifacts checked against the criteria; on
 *    failure one retry of Act with the advice, and Reflect again.
 * 4. Report: what was produced, or why it did not converge and what next.
 *
 * Phases, the plan, the question, reflections, budgets spent and the
 * blackboard are recorded in the session file (system messages with an
 * `event` and `data`, and `metadata.workflow`).
 *
 * @example
 * ```ts
 * const r = await runWorkflow(session.deps, session.convo, { goal, budgets, signal, ask, report: print });
 * if (!r.converged) exitCode = 1;
 * ```
 * @module
 */
import type { Outcome } from "../../interfaces/agent.ts";
import type { BlackboardEntry } from "../../interfaces/tool.ts";
import { type AgentDeps, type Conversation, runTask } from "./loop.ts";
import { workflowTools } from "../tools/mod.ts";
import { createBlackboard } from "../tools/blackboard.ts";
import {
  BudgetPipeline,
  BudgetTracker,
  type Spent,
  type WorkflowBudgets,
} from "./workflow_budget.ts";
import {
  actMessage,
  type Plan,
  planMessage,
  readPlan,
  readReflection,
  type Reflection,
  reflectMessage,
  reportMessage,
  retryMessage,
} from "./workflow_prompts.ts";

/** How a workflow runs. */
export interface WorkflowOptions {
  goal: string;
  budgets: WorkflowBudgets;
  signal: AbortSignal;
  /** Answers the plan's one question (in `run`: says no user is available). */
  ask(question: string): Promise<string>;
  /** Progress lines for the user: phases and budgets spent. */
  report(line: string): void;
}

/** The phases, in the order they can happen. */
export type Phase = "plan" | "act" | "reflect" | "retry" | "report";

/** How a workflow ended. */
export interface WorkflowResult {
  /** True when the last reflection found every criterion met. */
  converged: boolean;
  /** `failed` when a phase ended on an error (provider, invalid calls); `aborted` on Ctrl+C. */
  outcome: "converged" | "not_converged" | "failed" | "aborted";
  /** The final report (the model's), or what stopped the workflow. */
  report: string;
  plan: Plan | null;
  reflections: Reflection[];
  blackboard: BlackboardEntry[];
  spent: Spent;
  budgets: WorkflowBudgets;
}

/** Runs a goal as Plan → Act → Reflect (one retry) → Report. */
export async function runWorkflow(
  deps: AgentDeps,
  convo: Conversation,
  o: WorkflowOptions,
): Promise<WorkflowResult> {
  const w = new Run(deps, convo, o);
  return await w.run();
}

class Run {
  readonly spend: BudgetTracker;
  readonly board = createBlackboard();
  readonly reflections: Reflection[] = [];
  plan: Plan | null = null;
  phase: Phase = "plan";
  stopped: string | undefined;
  grace = false;
  phaseAbort = new AbortController();
  readonly deps: AgentDeps;

  constructor(base: AgentDeps, readonly convo: Conversation, readonly o: WorkflowOptions) {
    this.spend = new BudgetTracker(o.budgets);
    const runner = base.runner;
    this.deps = {
      ...base,
      tools: [...base.tools, ...workflowTools],
      runner: {
        ...runner,
        pipeline: new BudgetPipeline(
          runner.pipeline,
          (t) => this.guard(t.kind),
          () => this.counted(),
        ),
        context: (signal) => ({ ...runner.context(signal), blackboard: this.board }),
      },
      emit: (ev) => {
        if (ev.type === "reply_end" && ev.usage) this.spend.tokens(ev.usage.totalTokens);
        if (ev.type === "turn_start") this.checkTurn();
        base.emit(ev);
      },
    };
  }

  async run(): Promise<WorkflowResult> {
    const plan = await this.step("plan", planMessage(this.o.goal));
    if (plan.kind !== "ok") return await this.end(plan.outcome);
    this.plan = readPlan(plan.text);
    await this.event(
      "workflow_plan",
      `plan: ${this.plan.steps.length} steps, ${this.plan.criteria.length} criteria`,
      { plan: this.plan },
    );
    let answer: string | undefined;
    if (this.plan.question) {
      answer = await this.o.ask(this.plan.question);
      await this.event("workflow_question", this.plan.question, {
        question: this.plan.question,
        answer,
      });
    }
    let reflection: Reflection | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const message = attempt === 0
        ? actMessage(this.plan, answer, this.spend)
        : retryMessage(reflection!, this.spend);
      const act = await this.step(attempt === 0 ? "act" : "retry", message);
      await this.event("workflow_blackboard", `blackboard: ${this.board.list().length} artifacts`, {
        entries: this.board.list(),
      });
      if (act.kind === "failed") return await this.end(act.outcome);
      const checked = await this.step("reflect", reflectMessage(this.plan, this.board.list()));
      if (checked.kind !== "ok") return await this.end(checked.outcome);
      reflection = readReflection(checked.text);
      this.reflections.push(reflection);
      await this.event(
        "workflow_reflect",
        `reflect: ${reflection.ok ? "criteria met" : "not met"}`,
        { attempt: attempt + 1, ...reflection },
      );
      this.o.report(
        reflection.ok
          ? "reflect: every criterion is met"
          : `reflect: not met — ${reflection.advice || "no advice"}`,
      );
      if (reflection.ok) break;
    }
    const converged = reflection?.ok === true;
    const final = await this.step("report", reportMessage(converged, this.stopped));
    const text = final.kind === "ok" ? final.text : describe(final.outcome);
    return await this.finish(converged ? "converged" : "not_converged", text);
  }

  /** Runs one phase as a task of the loop. */
  async step(phase: Phase, message: string): Promise<StepResult> {
    this.phase = phase;
    this.grace = false;
    this.phaseAbort = new AbortController();
    const signal = AbortSignal.any([this.o.signal, this.phaseAbort.signal]);
    this.o.report(`workflow: ${phase} · ${this.spend.line()}`);
    await this.event("workflow_phase", `workflow: ${phase}`, { phase, spent: this.spend.spent() });
    const outcome = await runTask(this.deps, this.convo, message, signal);
    if (outcome.kind === "answered") return { kind: "ok", text: outcome.text, outcome };
    if (outcome.kind === "completed") return { kind: "ok", text: outcome.result, outcome };
    if (outcome.kind === "aborted" && !this.o.signal.aborted && this.stopped) {
      return { kind: "stopped", text: "", outcome };
    }
    if (outcome.kind === "max_turns") return { kind: "stopped", text: "", outcome };
    return { kind: "failed", text: "", outcome };
  }

  /** Phases other than act change nothing; act stops calling tools once a budget is spent. */
  guard(kind: string): string | null {
    const acting = this.phase === "act" || this.phase === "retry";
    if (!acting && kind !== "read" && kind !== "meta") {
      return `The workflow is in its ${this.phase} phase: change nothing now (reading is fine)`;
    }
    const spent = acting ? this.spend.exhausted() : undefined;
    if (spent) {
      this.stopped ??= `budget spent: ${spent}`;
      return `The workflow's budget is spent (${spent}): stop calling tools and sum up what was done and what is left`;
    }
    return null;
  }

  counted(): void {
    this.spend.toolCall();
    this.o.report(this.spend.line());
  }

  /** After a budget is spent, the model gets one more reply to sum up; then the phase stops. */
  checkTurn(): void {
    const acting = this.phase === "act" || this.phase === "retry";
    const spent = this.spend.exhausted();
    if (!acting || !spent) return;
    this.stopped ??= `budget spent: ${spent}`;
    if (this.grace) this.phaseAbort.abort();
    this.grace = true;
  }

  async event(event: string, content: string, data: Record<string, unknown>): Promise<void> {
    await this.deps.recorder.append({ role: "system", content, event, data });
  }

  async end(outcome: Outcome): Promise<WorkflowResult> {
    return await this.finish(outcome.kind === "aborted" ? "aborted" : "failed", describe(outcome));
  }

  async finish(outcome: WorkflowResult["outcome"], report: string): Promise<WorkflowResult> {
    const result: WorkflowResult = {
      converged: outcome === "converged",
      outcome,
      report,
      plan: this.plan,
      reflections: this.reflections,
      blackboard: this.board.list(),
      spent: this.spend.spent(),
      budgets: this.o.budgets,
    };
    const { report: _r, ...summary } = result;
    await this.event("workflow_end", `workflow ${outcome}`, { ...summary, stopped: this.stopped });
    await this.deps.recorder.update({
      workflow: { goal: this.o.goal, ...summary, stopped: this.stopped },
    });
    this.o.report(`workflow: ${outcome} · ${this.spend.line()}`);
    return result;
  }
}

type StepResult =
  | { kind: "ok"; text: string; outcome: Outcome }
  | { kind: "stopped" | "failed"; text: string; outcome: Outcome };

function describe(o: Outcome): string {
  switch (o.kind) {
    case "provider_error":
      return `The model could not be reached: ${o.error.message}`;
    case "parse_errors":
      return `Stopped after ${o.count} invalid tool calls in a row`;
    case "max_turns":
      return `Stopped at the limit of ${o.turns} turns`;
    case "aborted":
      return "Cancelled";
    case "answered":
      return o.text;
    case "completed":
      return o.result;
  }
}
