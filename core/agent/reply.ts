/**
 * Streams one model reply, feeding the call scanner as text arrives and
 * reporting prose and a live call summary to the user interface.
 *
 * @module
 */
import type {
  AgentEvent,
  ChatMessage,
  LlmProvider,
  ProviderError,
  StopReason,
  Usage,
} from "../../interfaces/agent.ts";
import type { AnyTool, ParseResult } from "../../interfaces/tool.ts";
import { CallScanner } from "../protocol/xml.ts";
import { estimateUsage } from "./tokens.ts";

/** One finished reply. */
export interface Reply {
  /** The whole reply as streamed (with any `<think>` block). */
  text: string;
  /** The reply without its reasoning: what is recorded and sent back. */
  visible: string;
  /** The reasoning (a delta field or `<think>` in the text); "" when none. */
  reasoning: string;
  parsed: ParseResult;
  end: StopReason;
  usage?: Usage;
  error?: ProviderError;
  /** Milliseconds from the request to the reply's end. */
  ms: number;
  /** Milliseconds from the request to the first text; undefined when none came. */
  firstTokenMs?: number;
  /** Failed attempts the provider retried before this reply. */
  retries?: number;
}

/** What streaming a reply needs. */
export interface ReplyDeps {
  provider: LlmProvider;
  tools: readonly AnyTool[];
  emit(event: AgentEvent): void;
  /** The model's context window, for the "context used" figure of `reply_end`. */
  context?: { window: number };
  /**
   * Told when a request has gone out and the model is working (on a later
   * turn of the event loop than the request's start, so nothing it does
   * holds up the request's write): the agent's own chores may run then.
   */
  requested?(): void;
}

/** Asks the provider for a reply and parses it while it streams. */
export async function streamReply(
  deps: ReplyDeps,
  messages: readonly ChatMessage[],
  signal: AbortSignal,
): Promise<Reply> {
  const started = performance.now();
  const scanner = new CallScanner(deps.tools);
  const parts: string[] = [];
  const thoughts: string[] = [];
  let usage: Usage | undefined;
  let end: StopReason = "stop";
  let error: ProviderError | undefined;
  let firstTokenMs: number | undefined;
  let retries: number | undefined;
  const waitsForUser = deps.provider.waitsForUser === true;
  deps.emit({
    type: "waiting",
    model: deps.provider.model,
    ...(waitsForUser ? { waitsForUser } : {}),
  });
  for await (const ev of deps.provider.stream({ messages: [...messages], signal })) {
    if (ev.type === "text") {
      if (parts.length === 0) {
        deps.emit({ type: "state", state: "streaming" });
        firstTokenMs = Math.round(performance.now() - started);
      }
      parts.push(ev.text);
      const update = scanner.push(ev.text);
      if (update.reasoning) deps.emit({ type: "reasoning", text: update.reasoning });
      if (update.prose) deps.emit({ type: "text", text: update.prose });
      if (update.call) deps.emit({ type: "call_progress", summary: update.call });
    } else if (ev.type === "open") {
      // The runtime writes the request only once this turn of the event loop is over: whatever
      // runs before then delays it (bench/NOTES.md). The agent's chores wait for the next turn.
      if (deps.requested) setImmediate(deps.requested);
    } else if (ev.type === "reasoning") {
      thoughts.push(ev.text);
      deps.emit({ type: "reasoning", text: ev.text });
    } else if (ev.type === "usage") {
      usage = ev.usage;
    } else {
      end = ev.reason;
      error = ev.error;
      retries = ev.retries;
    }
  }
  if (signal.aborted) end = "aborted";
  deps.emit({ type: "state", state: "parsing" });
  const parseStart = performance.now();
  const parsed = scanner.finish();
  deps.emit({ type: "parsed", result: parsed, ms: performance.now() - parseStart });
  const rest = scanner.finalProse();
  if (rest) deps.emit({ type: "text", text: rest });
  const ms = performance.now() - started;
  const text = parts.join("");
  // The server reported no usage: count it locally (marked `estimated`).
  if (!usage && (end === "stop" || end === "length")) usage = await estimateUsage(messages, text);
  const window = deps.context?.window;
  const context = usage && window
    ? { used: usage.promptTokens + usage.completionTokens, window }
    : undefined;
  deps.emit({ type: "reply_end", usage, ...(context ? { context } : {}) });
  const reasoning = [thoughts.join("").trim(), scanner.reasoning()].filter((r) => r).join("\n\n");
  return {
    text,
    visible: scanner.visibleText(),
    reasoning,
    parsed,
    end,
    usage,
    error,
    ms,
    firstTokenMs,
    retries,
  };
}
