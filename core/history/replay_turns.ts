/**
 * A recorded session cut into model turns for replay: for each assistant
 * reply, the conversation the model had been sent before it, and what the
 * record says came of the reply (a call with its verdicts and result, a parse
 * error, a plain answer).
 *
 * @example
 * ```ts
 * for (const turn of recordedTurns(await loadSession(path))) {
 *   console.log(turn.number, turn.outcome.kind, turn.prefix.length);
 * }
 * ```
 * @module
 */
import type { ChatMessage } from "../../interfaces/agent.ts";
import type { SessionFile, SessionMessage } from "../../interfaces/history.ts";
import type { ToolCall, Verdict } from "../../interfaces/tool.ts";

/** Events the loop records when a reply's tool call cannot be parsed. */
export const PARSE_ERROR_EVENTS: ReadonlySet<string> = new Set([
  "unknown_tool",
  "unclosed",
  "multiple_tool_calls",
  "missing_param",
]);

/** What the record says came of one reply. */
export type RecordedOutcome =
  /** No tool call: the reply answered the user (or the record ends with it). */
  | { kind: "none" }
  | { kind: "parse_error"; error: string; message: string }
  | {
    kind: "call";
    call: ToolCall;
    /** Empty when the call's arguments were invalid (it was never gated). */
    verdicts: Verdict[];
    allowedBy?: string;
    /** The tool's result; absent when the record stops before it. */
    response?: SessionMessage;
  }
  /** The reply ended with a provider error: nothing came of it. */
  | { kind: "unknown"; reason: string };

/** One model turn of a recorded session. */
export interface RecordedTurn {
  /** 1-based, counting every assistant reply of the session. */
  number: number;
  /** The system prompt and every message sent before this reply. */
  prefix: ChatMessage[];
  /** The reply's text as recorded. */
  reply: string;
  outcome: RecordedOutcome;
}

/** Every assistant reply of `session`, with its prefix and outcome. */
export function recordedTurns(session: SessionFile): RecordedTurn[] {
  const sent: ChatMessage[] = [{ role: "system", content: session.systemPrompt }];
  const turns: RecordedTurn[] = [];
  const ms = session.messages;
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i];
    if (m.role === "user") sent.push({ role: "user", content: m.content });
    if (m.role !== "assistant") continue;
    turns.push({
      number: turns.length + 1,
      prefix: sent.slice(),
      reply: m.content,
      outcome: outcomeAfter(ms, i),
    });
    sent.push({ role: "assistant", content: m.content });
  }
  return turns;
}

/** Reads the entries after the reply at `i`, up to the next user or assistant message. */
function outcomeAfter(ms: readonly SessionMessage[], i: number): RecordedOutcome {
  for (let j = i + 1; j < ms.length; j++) {
    const m = ms[j];
    if (m.role === "user" || m.role === "assistant") return { kind: "none" };
    if (m.role === "tool_call" && m.call) {
      const next = ms[j + 1];
      return {
        kind: "call",
        call: m.call,
        verdicts: m.verdicts ?? [],
        ...(m.allowedBy ? { allowedBy: m.allowedBy } : {}),
        ...(next?.role === "tool_response" ? { response: next } : {}),
      };
    }
    if (m.role === "system" && m.event && PARSE_ERROR_EVENTS.has(m.event)) {
      return { kind: "parse_error", error: m.event, message: m.content };
    }
    if (m.role === "system" && m.event === "provider_error") {
      return { kind: "unknown", reason: `the reply ended with an error: ${m.content}` };
    }
  }
  return { kind: "none" };
}
