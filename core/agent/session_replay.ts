/**
 * Replays a recorded session through today's parser and gates, in dry-run:
 * at each model turn the provider gives a reply (the recorded one, served by
 * the replay provider, or a given model's answer to the recorded
 * conversation), today's streaming parser reads it, today's gates judge the
 * call (the user's recorded answers are given again; nothing is approved that
 * the recording did not approve), and a call identical to the recorded one
 * runs the dry-run way: reads for real, file changes in memory, commands not
 * at all. Each turn reports where the call, a verdict or the result differs.
 *
 * @example
 * ```ts
 * const dry = createDryRun(realFs);
 * const report = await replaySession(session, {
 *   provider: replayProvider(repliesFromSession(session)),
 *   tools, gates: [modeGate(() => session.mode), security, approval, dry.gate],
 *   context: (signal) => ({ ...ctx, fs: dry.fs, signal }), simulate: dry.simulate,
 * });
 * console.log(report.differences);
 * ```
 * @module
 */
import type { LlmProvider } from "../../interfaces/agent.ts";
import type { SessionFile, SessionMessage } from "../../interfaces/history.ts";
import type {
  AnyTool,
  Gate,
  ParseResult,
  ToolCall,
  ToolContext,
  ToolResult,
} from "../../interfaces/tool.ts";
import type { SimulateInput } from "../permission/dry_run.ts";
import { Pipeline } from "../permission/pipeline.ts";
import { executeCall } from "./execute.ts";
import { streamReply } from "./reply.ts";
import { coerceArgs } from "../tools/dispatch.ts";
import { nullRecorder } from "../history/recorder.ts";
import {
  compareCall,
  compareResult,
  compareVerdicts,
  describeParsed,
  describeRecorded,
  type Difference,
  recordedDecision,
  sameCall,
  verdictText,
} from "../history/replay_compare.ts";
import { type RecordedOutcome, type RecordedTurn, recordedTurns } from "../history/replay_turns.ts";

export type { Difference } from "../history/replay_compare.ts";

/** What replaying needs: the reply source and today's tools and gates. */
export interface ReplayDeps {
  /** Serves the replies: recorded ones, or a model's. */
  provider: LlmProvider;
  tools: readonly AnyTool[];
  /** Today's gates in order; a dry-run gate last keeps the disk untouched. */
  gates: readonly Gate[];
  /** A tool context whose file system is the dry-run overlay. */
  context(signal: AbortSignal): ToolContext;
  /** Runs calls the gates marked `simulate` (the dry-run simulator). */
  simulate?(input: SimulateInput): Promise<ToolResult>;
  /** Edit blocks: the call a reply without an XML call stands for. */
  blockCall?(text: string): ToolCall | null;
  signal?: AbortSignal;
  /** Called after each turn (progress). */
  onTurn?(turn: TurnReport): void;
}

/** How one call fared today. */
export type RunState = "ran" | "in memory" | "not run" | "denied" | "invalid" | "no call";

/** One turn of the replay. */
export interface TurnReport {
  number: number;
  recorded: string;
  today: string;
  /** Today's verdicts, short (empty without a call). */
  verdicts: string[];
  state: RunState;
  differences: Difference[];
}

/** The whole replay. */
export interface ReplayReport {
  sessionId: string;
  /** `recorded` replies, or the `model` that answered. */
  source: "recorded" | "model";
  model: string;
  turns: TurnReport[];
  /** Differences over all turns. */
  differences: number;
}

/** Replays every model turn of `session`. */
export async function replaySession(
  session: SessionFile,
  deps: ReplayDeps,
  source: "recorded" | "model" = "recorded",
): Promise<ReplayReport> {
  const signal = deps.signal ?? new AbortController().signal;
  const turns: TurnReport[] = [];
  for (const turn of recordedTurns(session)) {
    if (signal.aborted) break;
    const report = await replayTurn(turn, deps, signal);
    turns.push(report);
    deps.onTurn?.(report);
  }
  const differences = turns.reduce((n, t) => n + t.differences.length, 0);
  return { sessionId: session.sessionId, source, model: deps.provider.model, turns, differences };
}

async function replayTurn(
  turn: RecordedTurn,
  deps: ReplayDeps,
  signal: AbortSignal,
): Promise<TurnReport> {
  const reply = await streamReply(
    { provider: deps.provider, tools: deps.tools, emit: () => {} },
    turn.prefix,
    signal,
  );
  const base = { number: turn.number, recorded: describeRecorded(turn.outcome), verdicts: [] };
  if (reply.error || reply.end === "aborted") {
    const why = reply.error?.message ?? "aborted";
    const differences: Difference[] = [{ kind: "reply", recorded: "a reply", today: why }];
    return { ...base, today: `no reply: ${why}`, state: "no call", differences };
  }
  const parsed = withBlocks(reply.parsed, reply.text, deps);
  const differences: Difference[] = [];
  const callDiff = compareCall(turn.outcome, parsed);
  if (callDiff) differences.push(callDiff);
  const today = describeParsed(parsed);
  if (parsed.kind !== "call") return { ...base, today, state: "no call", differences };
  const recorded = turn.outcome.kind === "call" ? turn.outcome : undefined;
  const pipeline = pipelineFor(deps.gates, turn.outcome);
  if (!recorded || !sameCall(recorded.call, parsed.call)) {
    const verdicts = await gateOnly(deps, pipeline, parsed.call, signal);
    // Later turns read what the recording's call left behind, so run that one (dry) instead.
    if (recorded) {
      await runDry(deps, pipeline, recorded.call, recordedAnswer(recorded.response), signal);
    }
    return { ...base, today, verdicts, state: "not run", differences };
  }
  const ran = await runDry(deps, pipeline, parsed.call, recordedAnswer(recorded.response), signal);
  const verdictDiff = compareVerdicts(recorded.verdicts, ran.call?.verdicts ?? []);
  if (verdictDiff) differences.push(verdictDiff);
  const state = runState(ran.call, ran.response);
  if (recorded.response && ran.response && comparable(state, recorded.response)) {
    const d = compareResult(recorded.response, {
      ok: ran.response.ok !== false,
      output: ran.response.content,
      code: ran.response.code,
    });
    if (d) differences.push(d);
  }
  return { ...base, today, verdicts: ran.verdicts, state, differences };
}

function withBlocks(parsed: ParseResult, text: string, deps: ReplayDeps): ParseResult {
  if (parsed.kind === "call" || !deps.blockCall) return parsed;
  const call = deps.blockCall(text);
  return call ? { kind: "call", call } : parsed;
}

/** Today's gates, answering as the user answered in the recording. */
function pipelineFor(gates: readonly Gate[], outcome: RecordedOutcome): Pipeline {
  const verdicts = outcome.kind === "call" ? outcome.verdicts : [];
  return new Pipeline({
    gates: [...gates],
    confirm: { ask: () => Promise.resolve(recordedDecision(verdicts)) },
    autoApprove: outcome.kind === "call" && outcome.allowedBy === "--yes",
  });
}

/** Gates a call without running it; returns the verdicts, short. */
async function gateOnly(
  deps: ReplayDeps,
  pipeline: Pipeline,
  call: ToolCall,
  signal: AbortSignal,
): Promise<string[]> {
  const tool = deps.tools.find((t) => t.name === call.tool);
  if (!tool) return [];
  const coerced = coerceArgs(tool, call);
  if (!coerced.ok) return [];
  const ctx = deps.context(signal);
  const preview = tool.preview ? await tool.preview(coerced.args, ctx) : { kind: "none" as const };
  const decision = await pipeline.decide({ call, tool, args: coerced.args, preview, cwd: ctx.cwd });
  return decision.verdicts.map(verdictText);
}

/** Runs a call the dry-run way; returns what today's recorder saw. */
async function runDry(
  deps: ReplayDeps,
  pipeline: Pipeline,
  call: ToolCall,
  answer: string | undefined,
  signal: AbortSignal,
): Promise<{ call?: SessionMessage; response?: SessionMessage; verdicts: string[] }> {
  const recorder = nullRecorder();
  const context = (s: AbortSignal): ToolContext => {
    const ctx = deps.context(s);
    return answer === undefined ? ctx : { ...ctx, ask: () => Promise.resolve(answer) };
  };
  await executeCall(
    {
      tools: deps.tools,
      runner: { pipeline, context, backups: null, simulate: deps.simulate },
      recorder,
      emit: () => {},
    },
    call,
    signal,
  );
  const ms = recorder.snapshot().messages;
  const made = ms.find((m) => m.role === "tool_call");
  return {
    call: made,
    response: ms.find((m) => m.role === "tool_response"),
    verdicts: (made?.verdicts ?? []).map(verdictText),
  };
}

/** The user's answer to a recorded `ask_followup_question`, to give again. */
function recordedAnswer(response: SessionMessage | undefined): string | undefined {
  const prefix = "The user answered:\n";
  if (response?.tool !== "ask_followup_question") return undefined;
  return response.content.startsWith(prefix) ? response.content.slice(prefix.length) : undefined;
}

function runState(call?: SessionMessage, response?: SessionMessage): RunState {
  if (!call?.verdicts?.length) return "invalid";
  if (response?.code === "denied") return "denied";
  if (response?.code === "simulated") return "not run";
  const simulated = call.verdicts.some((v) => v.action === "simulate");
  return simulated ? "in memory" : "ran";
}

/** Results are compared when both sides produced one the same way (not denied, not skipped). */
function comparable(state: RunState, recorded: SessionMessage): boolean {
  if (state === "not run" || state === "denied") return false;
  return recorded.code !== "denied" && recorded.code !== "simulated";
}
