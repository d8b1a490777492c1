/**
 * One tool call from parsed XML to the message the model reads next:
 * arguments, preview, gates, the tool itself, and the record of each step.
 *
 * @module
 */
import { isAbsolute, relative } from "node:path";
import type { AgentEvent } from "../../interfaces/agent.ts";
import type { SessionRecorder } from "../../interfaces/history.ts";
import type { AnyTool, ToolCall, ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { formatCall } from "../protocol/feedback.ts";
import { callSummary, resultMessage } from "../protocol/call_text.ts";
import type { Pipeline } from "../permission/pipeline.ts";
import type { SimulateInput } from "../permission/dry_run.ts";
import type { GatedCall, Stepped, Stepper } from "../permission/step.ts";
import type { BackupStore } from "../history/backups.ts";
import { type CommandUndo, undoNote } from "../history/command_undo.ts";
import { coerceArgs, runTool } from "../tools/dispatch.ts";
import { fail } from "../tools/define.ts";
import { hideCredentials } from "../tools/child_env.ts";

/** What running a call needs besides the tools. */
export interface ToolRunner {
  pipeline: Pipeline;
  /** A tool context bound to this call's cancellation signal. */
  context(signal: AbortSignal): ToolContext;
  /** Undo backups of file changes; null when the session is not recorded. */
  backups: BackupStore | null;
  /** Keeps the project's files around shell commands, so undo covers their changes too. */
  commandUndo?: CommandUndo | null;
  /** Step mode: while it is on, the user reviews each call before it runs. */
  stepper?: Stepper | null;
  /** Runs a call the pipeline marked `simulate` (dry-run); default: not run, its reason told. */
  simulate?(input: SimulateInput): Promise<ToolResult>;
}

/** What executing needs from the loop. */
export interface ExecuteDeps {
  tools: readonly AnyTool[];
  runner: ToolRunner;
  recorder: SessionRecorder;
  emit(event: AgentEvent): void;
}

/** The outcome of one call, and the message that carries it to the model. */
export interface Executed {
  /** True when the arguments were invalid (counts like a parse error). */
  invalid: boolean;
  result: ToolResult;
  message: string;
}

/** Validates, gates, runs and records one call. */
export async function executeCall(
  deps: ExecuteDeps,
  call: ToolCall,
  signal: AbortSignal,
  rawText = "",
): Promise<Executed> {
  const tool = deps.tools.find((t) => t.name === call.tool);
  const summary = callSummary(call);
  if (!tool) return await invalidCall(deps, call, `unknown tool "${call.tool}"`);
  const coerced = coerceArgs(tool, call);
  if (!coerced.ok) return await invalidCall(deps, call, coerced.message, tool);
  deps.emit({ type: "tool_start", tool: call.tool, summary });
  const ctx = deps.runner.context(signal);
  const gated = await gateCall(deps.runner, tool, call, coerced.args, ctx).catch((e: unknown) => e);
  if (!isGated(gated)) return await uncheckable(deps, call, gated);
  const stepped = await stepThrough(deps, gated, rawText, ctx);
  const { decision, call: final } = stepped.gated;
  for (const v of decision.verdicts) deps.emit({ type: "verdict", ...v });
  await deps.recorder.append({
    role: "tool_call",
    content: callSummary(final),
    call: final,
    verdicts: decision.verdicts,
    allowedBy: decision.allowedBy,
  });
  deps.emit({ type: "state", state: "running" });
  const started = performance.now();
  const backups = deps.runner.backups;
  backups?.beginGroup(callSummary(final));
  let result = hidden(stepped.result ?? await act(deps.runner, stepped.gated, ctx));
  if (stepped.note) result = { ...result, output: `${stepped.note}\n\n${result.output}` };
  const backupIds = backups?.endGroup() ?? [];
  const ms = performance.now() - started;
  await record(deps, call.tool, result, ms, backupIds);
  deps.emit({ type: "tool_end", tool: call.tool, ok: result.ok, display: result.display, ms });
  return { invalid: false, result, message: resultMessage(final, result) };
}

/**
 * `result` without minoc's own keys: a command can read them from minoc's
 * process (see `child_env.ts`), and neither the model nor the screen may get them.
 */
function hidden(result: ToolResult): ToolResult {
  const output = hideCredentials(result.output);
  const display = hideCredentials(result.display);
  if (output === result.output && display === result.display) return result;
  return { ...result, output, display };
}

/** Previews a call and passes it through the gate pipeline. */
async function gateCall(
  runner: ToolRunner,
  tool: AnyTool,
  call: ToolCall,
  args: unknown,
  ctx: ToolContext,
): Promise<GatedCall> {
  const preview = tool.preview ? await tool.preview(args, ctx) : { kind: "none" as const };
  const decision = await runner.pipeline.decide({ call, tool, args, preview, cwd: ctx.cwd });
  return { call, tool, args, preview, decision };
}

/** Step mode's review of a call that may run; edited calls are validated and gated again. */
async function stepThrough(
  deps: ExecuteDeps,
  gated: GatedCall,
  rawText: string,
  ctx: ToolContext,
): Promise<Stepped> {
  const stepper = deps.runner.stepper;
  if (!stepper?.on || gated.decision.action === "deny") return { gated };
  return await stepper.review(gated, rawText, ctx.cwd, async (edited) => {
    const tool = deps.tools.find((t) => t.name === edited.tool);
    if (!tool) return { problem: `unknown tool "${edited.tool}"` };
    const coerced = coerceArgs(tool, edited);
    if (!coerced.ok) return { problem: coerced.message };
    return await gateCall(deps.runner, tool, edited, coerced.args, ctx);
  });
}

/** Runs, simulates or refuses the call, as decided. */
async function act(runner: ToolRunner, g: GatedCall, ctx: ToolContext): Promise<ToolResult> {
  const { decision } = g;
  if (decision.action === "run") {
    const watch = runner.commandUndo;
    if (!watch || g.tool.name !== "execute_command") return await runTool(g.tool, g.args, ctx);
    return await watched(watch, () => runTool(g.tool, g.args, ctx), ctx.signal);
  }
  if (decision.action === "deny") return fail("denied", decision.reason, "denied");
  if (runner.simulate) return await runner.simulate({ ...g, ctx, verdicts: decision.verdicts });
  return { ok: true, output: decision.reason, display: "simulated" };
}

/** Runs a shell command between two looks at the project, recording what it changed. */
async function watched(
  watch: CommandUndo,
  run: () => Promise<ToolResult>,
  signal: AbortSignal,
): Promise<ToolResult> {
  const before = await watch.before(signal).catch(() => null);
  const result = await run();
  const after = before ? await watch.after(before).catch(() => null) : null;
  const note = undoNote(before, after);
  return note ? { ...result, display: `${result.display ?? ""}\n${note}`.trimStart() } : result;
}

function isGated(x: unknown): x is GatedCall {
  return typeof x === "object" && x !== null && "decision" in x;
}

/** A call whose preview or gates threw (e.g. a path the OS refuses): an error result, never a crash. */
async function uncheckable(deps: ExecuteDeps, call: ToolCall, error: unknown): Promise<Executed> {
  const why = error instanceof Error ? error.message : String(error);
  const result = fail("preview_failed", `${call.tool} was not run: it cannot be checked: ${why}`);
  await deps.recorder.append({ role: "tool_call", content: callSummary(call), call });
  await record(deps, call.tool, result, 0);
  deps.emit({ type: "tool_end", tool: call.tool, ok: false, display: result.display, ms: 0 });
  return { invalid: false, result, message: resultMessage(call, result) };
}

async function invalidCall(
  deps: ExecuteDeps,
  call: ToolCall,
  problem: string,
  tool?: AnyTool,
): Promise<Executed> {
  const example = tool
    ? `\nA correct call looks like:\n${formatCall(tool.name, tool.example)}`
    : "";
  const output = `Invalid arguments for ${call.tool}: ${problem}.${example}`;
  const result = fail("invalid_args", output);
  deps.emit({ type: "parse_error", kind: "invalid_args", message: problem, consecutive: 0 });
  await deps.recorder.append({ role: "tool_call", content: callSummary(call), call });
  await record(deps, call.tool, result, 0);
  return { invalid: true, result, message: resultMessage(call, result) };
}

async function record(
  deps: ExecuteDeps,
  tool: string,
  result: ToolResult,
  ms: number,
  backupIds: string[] = [],
): Promise<void> {
  const snap = deps.recorder.snapshot();
  const meta = snap.metadata;
  const changed = new Set(meta.filesChanged);
  for (const c of result.changes ?? []) changed.add(projectRelative(snap.projectPath, c.path));
  // The totals go in the same write as the response.
  await deps.recorder.append({
    role: "tool_response",
    content: result.output,
    tool,
    ok: result.ok,
    code: result.code,
    toolMs: Math.round(ms * 10) / 10,
    ...(backupIds.length ? { backupIds } : {}),
  }, { toolCalls: meta.toolCalls + 1, filesChanged: [...changed] });
}

function projectRelative(root: string, path: string): string {
  const rel = relative(root, path);
  return rel.startsWith("..") || isAbsolute(rel) ? path : rel.replaceAll("\\", "/");
}

export { callSummary, resultMessage };
