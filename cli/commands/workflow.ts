/**
 * Running a goal as Plan → Act → Reflect from the CLI: `minoc run
 * --workflow "<goal>"` (exit 0 when the reflection found every criterion
 * met, 1 when not, 130 when interrupted) and `/workflow [flags] <goal>` in
 * the chat. Budgets come from `--budget-calls`, `--budget-tokens` and
 * `--budget-time` (defaults: 30 calls, 200,000 tokens, 600 s).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { DEFAULT_BUDGETS, type WorkflowBudgets } from "../../core/agent/workflow_budget.ts";
import { runWorkflow, type WorkflowResult } from "../../core/agent/workflow.ts";
import { CliError, type CliIO, EXIT } from "../io.ts";
import type { AgentSession } from "../session.ts";
import type { Palette } from "../ui/colors.ts";
import { visible } from "../../core/protocol/visible.ts";

/** The budget flags (see cli/options.ts). */
export interface BudgetFlags {
  budgetCalls?: number;
  budgetTokens?: number;
  budgetTime?: number;
}

/** Budgets from flags, defaults for the rest. */
export function budgetsFrom(flags: BudgetFlags): WorkflowBudgets {
  return {
    maxToolCalls: flags.budgetCalls ?? DEFAULT_BUDGETS.maxToolCalls,
    maxTokens: flags.budgetTokens ?? DEFAULT_BUDGETS.maxTokens,
    maxSeconds: flags.budgetTime ?? DEFAULT_BUDGETS.maxSeconds,
  };
}

/** What `run --workflow` needs besides the session. */
export interface WorkflowRunOptions extends BudgetFlags {
  json?: true;
  /** Where progress goes (stderr with --json). */
  write(text: string): void;
  /** The answer to the plan's question when nobody can answer. */
  noUser: string;
}

/** `run --workflow`: runs the goal, closes the session, sets the exit code. */
export async function runWorkflowCommand(
  io: CliIO,
  session: AgentSession,
  goal: string,
  o: WorkflowRunOptions,
): Promise<void> {
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  Deno.addSignalListener("SIGINT", onInterrupt);
  let result: WorkflowResult;
  try {
    result = await runWorkflow(session.deps, session.convo, {
      goal,
      budgets: budgetsFrom(o),
      signal: controller.signal,
      ask: () => Promise.resolve(o.noUser),
      report: (line) => o.write(`» ${line}\n`),
    });
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
    await session.close();
  }
  o.write(`\n${result.report.trim()}\n`);
  if (o.json) {
    const { report, ...rest } = result;
    const sessionId = session.recorder.snapshot().sessionId;
    io.out(JSON.stringify({ ok: result.converged, result: report, ...rest, sessionId }) + "\n");
  }
  io.exitCode = result.outcome === "converged"
    ? EXIT.ok
    : result.outcome === "aborted"
    ? EXIT.interrupted
    : EXIT.failed;
}

/** `/workflow [--budget-calls N] [--budget-tokens N] [--budget-time S] <goal>` in the chat. */
export async function slashWorkflow(
  rest: string,
  session: AgentSession,
  io: CliIO,
  c: Palette,
): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: rest.trim().split(/\s+/).filter((w) => w !== ""),
      options: {
        "budget-calls": { type: "string" },
        "budget-tokens": { type: "string" },
        "budget-time": { type: "string" },
      },
      allowPositionals: true,
    });
  } catch (e) {
    io.out(c.yellow(`${visible((e as Error).message)}\n`));
    return;
  }
  const goal = parsed.positionals.join(" ");
  if (goal === "") {
    io.out(
      c.yellow(
        "Usage: /workflow [--budget-calls N] [--budget-tokens N] [--budget-time S] <goal>\n",
      ),
    );
    return;
  }
  let flags: BudgetFlags;
  try {
    flags = {
      budgetCalls: count(parsed.values["budget-calls"], "--budget-calls"),
      budgetTokens: count(parsed.values["budget-tokens"], "--budget-tokens"),
      budgetTime: count(parsed.values["budget-time"], "--budget-time"),
    };
  } catch (e) {
    io.out(c.yellow(`${visible((e as Error).message)}\n`));
    return;
  }
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  Deno.addSignalListener("SIGINT", onInterrupt);
  try {
    const result = await runWorkflow(session.deps, session.convo, {
      goal,
      budgets: budgetsFrom(flags),
      signal: controller.signal,
      ask: (q) => session.deps.runner.context(controller.signal).ask(q),
      report: (line) => io.out(c.dim(`» ${visible(line)}`) + "\n"),
    });
    io.out(`\n${visible(result.report.trim())}\n`);
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}

function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new CliError(
      `Invalid ${flag} "${value}": expected a whole number of at least 1`,
      EXIT.usage,
    );
  }
  return n;
}
