/**
 * The agent loop: ask the model, parse at most one tool call, pass it through
 * the gates, run it, record everything, repeat until the model answers without
 * a call or a limit is hit.
 *
 * @module
 */
import type {
  AgentEvent,
  ChatMessage,
  LlmProvider,
  Outcome,
  RunLimits,
  Usage,
} from "../../interfaces/agent.ts";
import type { SessionMessage, SessionMetadata, SessionRecorder } from "../../interfaces/history.ts";
import type { AnyTool, ParseResult, ToolCall } from "../../interfaces/tool.ts";
import { parseErrorMessage } from "../protocol/feedback.ts";
import { executeCall, type ToolRunner } from "./execute.ts";
import { streamReply } from "./reply.ts";
import { dialectNote, type ReminderState, replyForModel } from "./dialect_note.ts";
import { type ContextBudget, fitContext } from "./context.ts";

/** Everything the loop needs, built by `main.ts`. */
export interface AgentDeps {
  provider: LlmProvider;
  tools: readonly AnyTool[];
  runner: ToolRunner;
  recorder: SessionRecorder;
  limits: RunLimits;
  emit(event: AgentEvent): void;
  /** The context window; when set, the conversation is compacted near it. */
  context?: ContextBudget;
  /**
   * Edit blocks / bridge directives: the call a reply without an XML tool
   * call stands for (e.g. `apply_edit_blocks`), or null.
   */
  blockCall?(text: string): ToolCall | null;
  /** Send the model's reasoning back in later turns (models.json `quirks.sendReasoning`). */
  sendReasoning?: boolean;
  /** A request has gone out; the model is working (see `ReplyDeps.requested`). */
  requested?(): void;
}

/** The conversation as the model sees it; the system prompt comes first. */
export interface Conversation extends ReminderState {
  messages: ChatMessage[];
}

/** Runs one user request to its end and reports how it ended. */
export async function runTask(
  deps: AgentDeps,
  convo: Conversation,
  request: string,
  signal: AbortSignal,
): Promise<Outcome> {
  const outcome = await loop(deps, convo, request, signal);
  deps.emit({ type: "done", outcome });
  return outcome;
}

async function loop(
  deps: AgentDeps,
  convo: Conversation,
  request: string,
  signal: AbortSignal,
): Promise<Outcome> {
  await say(deps, convo, "user", request);
  let parseErrors = 0;
  for (let turn = 1; turn <= deps.limits.maxTurns; turn++) {
    deps.emit({ type: "turn_start", turn });
    await fitContext(deps, convo, signal);
    const reply = await streamReply(deps, convo.messages, signal);
    // The turn is counted in the write of its reply (or alone when there is none).
    const totals = turnTotals(deps, reply.usage);
    if (reply.text !== "" || reply.end === "stop") {
      const content = replyForModel(reply, deps.sendReasoning === true);
      const dialect = reply.parsed.kind === "none"
        ? undefined
        : reply.parsed.dialect ?? "canonical";
      await say(deps, convo, "assistant", content, {
        usage: reply.usage,
        durationMs: reply.ms,
        firstTokenMs: reply.firstTokenMs,
        retries: reply.retries,
        dialect,
        reasoning: reply.reasoning || undefined,
      }, totals);
    } else await deps.recorder.update(totals);
    if (reply.end === "aborted") return { kind: "aborted" };
    if (reply.error) {
      await deps.recorder.append({
        role: "system",
        content: reply.error.message,
        event: "provider_error",
      });
      return { kind: "provider_error", error: reply.error };
    }
    const blocks = reply.parsed.kind === "call" ? null : deps.blockCall?.(reply.visible) ?? null;
    const parsed: ParseResult = blocks ? { kind: "call", call: blocks } : reply.parsed;
    if (parsed.kind === "none") return { kind: "answered", text: reply.visible };
    if (parsed.kind === "error") {
      parseErrors++;
      if (await parseFailed(deps, convo, parsed, parseErrors)) {
        return { kind: "parse_errors", count: parseErrors };
      }
      continue;
    }
    const done = await executeCall(deps, parsed.call, signal, reply.visible);
    if (done.invalid) {
      parseErrors++;
      await say(deps, convo, "user", done.message);
      if (parseErrors >= deps.limits.maxParseErrors) {
        return { kind: "parse_errors", count: parseErrors };
      }
      continue;
    }
    parseErrors = 0;
    const note = dialectNote(parsed, convo);
    await say(deps, convo, "user", note === "" ? done.message : `${done.message}\n\n${note}`);
    if (signal.aborted) return { kind: "aborted" };
    if (done.result.completion !== undefined) {
      return { kind: "completed", result: done.result.completion };
    }
  }
  return { kind: "max_turns", turns: deps.limits.maxTurns };
}

async function parseFailed(
  deps: AgentDeps,
  convo: Conversation,
  parsed: Extract<ParseResult, { kind: "error" }>,
  count: number,
): Promise<boolean> {
  deps.emit({
    type: "parse_error",
    kind: parsed.error,
    message: parsed.message,
    consecutive: count,
  });
  const snap = deps.recorder.snapshot().metadata;
  await deps.recorder.append({ role: "system", content: parsed.message, event: parsed.error });
  await deps.recorder.update({ parseErrors: snap.parseErrors + 1 });
  await say(deps, convo, "user", parseErrorMessage(parsed, deps.tools));
  return count >= deps.limits.maxParseErrors;
}

async function say(
  deps: AgentDeps,
  convo: Conversation,
  role: "user" | "assistant",
  content: string,
  facts: Pick<
    SessionMessage,
    "usage" | "durationMs" | "firstTokenMs" | "retries" | "dialect" | "reasoning"
  > = {},
  totals?: Partial<SessionMetadata>,
): Promise<void> {
  convo.messages.push({ role, content });
  await deps.recorder.append({ role, content, ...facts }, totals);
}

/** The session's totals with one more turn and its token usage. */
function turnTotals(deps: AgentDeps, usage: Usage | undefined): Partial<SessionMetadata> {
  const m = deps.recorder.snapshot().metadata;
  return {
    turns: m.turns + 1,
    promptTokens: m.promptTokens + (usage?.promptTokens ?? 0),
    completionTokens: m.completionTokens + (usage?.completionTokens ?? 0),
    totalTokens: m.totalTokens + (usage?.totalTokens ?? 0),
  };
}
