/**
 * `minoc run "<task>"`: one task, no questions asked. Exit 0 when the model
 * finished, 1 when the task failed or hit a limit, 2 for configuration errors.
 *
 * @module
 */
import type { Outcome } from "../../interfaces/agent.ts";
import { runTask } from "../../core/agent/loop.ts";
import { parseRuleFlag, type PermissionRule } from "../../core/permission/rules.ts";
import { noServerStart } from "../connect.ts";
import { openSession } from "../session.ts";
import { chooseResume } from "../resume.ts";
import { bridgeSetup } from "../session_bridge.ts";
import { CliError, type CliIO, EXIT, warn } from "../io.ts";
import { palette } from "../ui/colors.ts";
import { createRenderer } from "../ui/render.ts";
import { createProgress, withProgress } from "../ui/progress.ts";
import { renderDryRun } from "../ui/dry_run.ts";
import { dryRunReport } from "../../core/permission/dry_run_report.ts";
import { type CommonOptions, settingsFrom } from "./common.ts";
import { visible } from "../../core/protocol/visible.ts";

/** Options of `run`. */
export interface RunOptions extends CommonOptions {
  json?: true;
  allow?: string[];
  deny?: string[];
  /** `--workflow` and its budgets: the task is a goal for Plan → Act → Reflect. */
  workflow?: true;
  budgetCalls?: number;
  budgetTokens?: number;
  budgetTime?: number;
}

const NO_USER = "No user is available to answer; decide yourself and continue.";

/** Runs one task to its end. */
export async function runCommand(io: CliIO, task: string, opts: RunOptions): Promise<void> {
  if (opts.step) {
    throw new CliError(
      "run --step is not possible: step mode needs a terminal to answer in; use the chat (minoc --step)",
      EXIT.usage,
    );
  }
  // Nothing configured: a local server if one answers, else exit 2 (no paste without a user).
  const start = noServerStart(opts, { write: io.err, interactive: false, bridge: false });
  const settings = await settingsFrom(opts, start.connect);
  opts = { ...opts, ...start.opts() };
  const extraRules = ruleFlags(opts);
  const resume = await chooseResume(opts, settings.cwd, { interactive: false }) ?? undefined;
  // With --json, stdout carries only the final object; progress goes to stderr.
  const write = opts.json ? io.err : io.out;
  const tty = !opts.json && Deno.stdout.isTerminal();
  const colors = palette(tty);
  const render = createRenderer({
    write,
    tty,
    colors,
    quiet: opts.quiet === true,
    markdown: tty && colors.isColorSupported,
    reasoning: { full: opts.showReasoning === true, last: "" },
  });
  const progress = createProgress({ enabled: settings.progress });
  const session = await openSession({
    settings,
    mode: opts.plan ? "plan" : resume?.session.mode ?? "agent",
    resume,
    bridge: bridgeSetup(opts, {
      write,
      interactive: Deno.stdin.isTerminal(),
      progress,
    }),
    record: opts.session !== false,
    autoApprove: opts.yes === true,
    sandbox: opts.sandbox,
    confirm: null,
    ask: () => Promise.resolve(NO_USER),
    emit: withProgress(progress, render),
    onOutput: (t) => {
      progress.touch();
      write(visible(t));
    },
    warn: (m) => {
      progress.touch();
      warn(io, m);
    },
    extraRules,
    dryRun: opts.dryRun === true,
    debug: opts.debug === true,
    debugLine: (line) => write(`  ${line}\n`),
  });
  if (opts.workflow) {
    const { runWorkflowCommand } = await import("./workflow.ts");
    return await runWorkflowCommand(io, session, task, { ...opts, write, noUser: NO_USER });
  }
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  Deno.addSignalListener("SIGINT", onInterrupt);
  let outcome: Outcome;
  try {
    outcome = await runTask(session.deps, session.convo, task, controller.signal);
  } finally {
    progress.end();
    Deno.removeSignalListener("SIGINT", onInterrupt);
    await session.close();
  }
  const dry = session.dryRun ? await dryRunReport(session.dryRun, session.cwd) : null;
  if (dry) write(renderDryRun(dry, colors));
  if (opts.json) {
    const json = {
      ...summary(outcome, session.recorder.snapshot()),
      ...(dry ? { dryRun: dry } : {}),
    };
    io.out(JSON.stringify(json) + "\n");
  }
  io.exitCode = exitCodeOf(outcome);
  if (outcome.kind === "provider_error" && outcome.error.kind === "auth") {
    throw new CliError(outcome.error.message, EXIT.usage);
  }
}

function ruleFlags(opts: RunOptions): PermissionRule[] {
  const rules: PermissionRule[] = [];
  for (const [action, values] of [["allow", opts.allow], ["deny", opts.deny]] as const) {
    for (const v of values ?? []) {
      const r = parseRuleFlag(v, action);
      if (!r.ok) throw new CliError(r.message, EXIT.usage);
      rules.push(r.rule);
    }
  }
  return rules;
}

/** Exit code for an outcome. */
export function exitCodeOf(outcome: Outcome): number {
  if (outcome.kind === "answered" || outcome.kind === "completed") return EXIT.ok;
  if (outcome.kind === "aborted") return EXIT.interrupted;
  return EXIT.failed;
}

function summary(
  outcome: Outcome,
  s: ReturnType<import("../../interfaces/history.ts").SessionRecorder["snapshot"]>,
) {
  const result = outcome.kind === "answered"
    ? outcome.text
    : outcome.kind === "completed"
    ? outcome.result
    : outcome.kind === "provider_error"
    ? outcome.error.message
    : null;
  return {
    ok: exitCodeOf(outcome) === EXIT.ok,
    outcome: outcome.kind,
    result,
    turns: s.metadata.turns,
    tokens: {
      prompt: s.metadata.promptTokens,
      completion: s.metadata.completionTokens,
      total: s.metadata.totalTokens,
    },
    sessionId: s.sessionId,
    filesChanged: s.metadata.filesChanged,
  };
}
