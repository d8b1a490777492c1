/**
 * Workflow budgets — tool calls, tokens and time — counted as they are
 * spent, and a pipeline wrapper that enforces them (and the read-only
 * phases) before the session's own gates see a call.
 *
 * @example
 * ```ts
 * const spend = new BudgetTracker({ maxToolCalls: 20, maxTokens: 100_000, maxSeconds: 300 });
 * const pipeline = new BudgetPipeline(session.pipeline, (input) => spend.refusal(input.tool), () => spend.toolCall());
 * ```
 * @module
 */
import type { AnyTool, GateInput } from "../../interfaces/tool.ts";
import { Pipeline, type PipelineDecision } from "../permission/pipeline.ts";

/** Limits of one workflow. */
export interface WorkflowBudgets {
  maxToolCalls: number;
  maxTokens: number;
  maxSeconds: number;
}

/** Defaults: 30 tool calls, 200,000 tokens, 10 minutes. */
export const DEFAULT_BUDGETS: WorkflowBudgets = {
  maxToolCalls: 30,
  maxTokens: 200_000,
  maxSeconds: 600,
};

/** What has been spent. */
export interface Spent {
  toolCalls: number;
  tokens: number;
  seconds: number;
}

/** Counts spending against the budgets. */
export class BudgetTracker {
  readonly budgets: WorkflowBudgets;
  #toolCalls = 0;
  #tokens = 0;
  readonly #started: number;
  readonly #now: () => number;

  constructor(budgets: WorkflowBudgets, now: () => number = () => performance.now()) {
    this.budgets = budgets;
    this.#now = now;
    this.#started = now();
  }

  /** One tool call that ran. */
  toolCall(): void {
    this.#toolCalls++;
  }

  /** Tokens of one reply (prompt and completion). */
  tokens(n: number): void {
    this.#tokens += n;
  }

  /** Spending so far. */
  spent(): Spent {
    const seconds = Math.round((this.#now() - this.#started) / 100) / 10;
    return { toolCalls: this.#toolCalls, tokens: this.#tokens, seconds };
  }

  /** The budget that is used up, or undefined while all have room. */
  exhausted(): string | undefined {
    const s = this.spent();
    const b = this.budgets;
    if (s.toolCalls >= b.maxToolCalls) return `tool calls ${s.toolCalls}/${b.maxToolCalls}`;
    if (s.tokens >= b.maxTokens) return `tokens ${s.tokens}/${b.maxTokens}`;
    if (s.seconds >= b.maxSeconds) return `time ${Math.round(s.seconds)}/${b.maxSeconds} s`;
    return undefined;
  }

  /** `budget: 3/30 tool calls · 1,200/200,000 tokens · 14/600 s`. */
  line(): string {
    const s = this.spent();
    const b = this.budgets;
    const n = (x: number) => x.toLocaleString("en-US");
    return `budget: ${s.toolCalls}/${b.maxToolCalls} tool calls · ${n(s.tokens)}/${
      n(b.maxTokens)
    } tokens · ` +
      `${Math.round(s.seconds)}/${b.maxSeconds} s`;
  }
}

/** Decides whether a call may go on to the gates: a refusal text, or null. */
export type CallGuard = (tool: AnyTool) => string | null;

/**
 * A pipeline that first asks `guard` (budgets, read-only phases), then the
 * session's own pipeline, and counts every call that is allowed to run.
 */
export class BudgetPipeline extends Pipeline {
  readonly #inner: Pipeline;
  readonly #guard: CallGuard;
  readonly #onRun: () => void;

  constructor(inner: Pipeline, guard: CallGuard, onRun: () => void) {
    super({ gates: [], confirm: null, autoApprove: false });
    this.#inner = inner;
    this.#guard = guard;
    this.#onRun = onRun;
  }

  override get gates() {
    return this.#inner.gates;
  }

  override async decide(input: GateInput): Promise<PipelineDecision> {
    const refusal = this.#guard(input.tool);
    if (refusal !== null) {
      return {
        action: "deny",
        reason: refusal,
        verdicts: [{ gate: "workflow", action: "deny", reason: refusal, rule: "workflow" }],
      };
    }
    const decision = await this.#inner.decide(input);
    if (decision.action !== "deny") this.#onRun();
    return decision;
  }
}
