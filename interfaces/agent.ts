/**
 * Contracts between the agent loop, model providers and the user interface.
 *
 * A provider streams text events and never throws into the loop: every failure
 * arrives as a final `end` event carrying a {@link ProviderError}.
 *
 * @module
 */
import type { ParseResult } from "./tool.ts";

/** A chat message as sent to a model. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Sampling parameters sent with every request; absent fields are not sent. */
export interface ModelParams {
  model: string;
  temperature?: number;
  topP?: number;
  /** Not part of the OpenAI API; sent as an extra body field `top_k`. */
  topK?: number;
  maxTokens?: number;
}

/** Token counts for one reply, as reported by the server (or estimated). */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** True when counted locally (gpt-tokenizer) because the server reported none. */
  estimated?: boolean;
}

/** Why a provider could not produce (the rest of) a reply. */
export type ProviderErrorKind =
  | "auth"
  | "bad_request"
  | "not_found"
  | "rate_limit"
  | "server"
  | "network"
  | "timeout"
  | "unknown";

/** A provider failure, as a value. */
export interface ProviderError {
  kind: ProviderErrorKind;
  /** One line for the user, naming the URL or model where it helps. */
  message: string;
  /** HTTP status when the server answered. */
  status?: number;
  /** Server-requested wait, from `retry-after-ms` or `retry-after`. */
  retryAfterMs?: number;
  /** True when some text of the reply had already been streamed. */
  afterText?: boolean;
}

/** How a reply stream ended. */
export type StopReason = "stop" | "length" | "error" | "aborted";

/** One event of a streamed reply. */
export type StreamEvent =
  /**
   * The request has gone out to the server: from now on the model works and
   * the agent waits. Providers that cannot tell send none.
   */
  | { type: "open" }
  | { type: "text"; text: string }
  /** Reasoning the server sends apart (`reasoning_content` / `reasoning` delta fields). */
  | { type: "reasoning"; text: string }
  | { type: "usage"; usage: Usage }
  | {
    type: "end";
    reason: StopReason;
    error?: ProviderError;
    /** Failed attempts retried before this one (set by the retry decorator). */
    retries?: number;
  };

/** One request to a provider. */
export interface ChatRequest {
  messages: ChatMessage[];
  signal?: AbortSignal;
}

/**
 * A source of model replies.
 *
 * @example
 * ```ts
 * for await (const ev of provider.stream({ messages })) {
 *   if (ev.type === "text") Deno.stdout.writeSync(new TextEncoder().encode(ev.text));
 * }
 * ```
 */
export interface LlmProvider {
  /** Provider name, e.g. `openai`. */
  readonly name: string;
  /** Model name as sent to the server. */
  readonly model: string;
  /** Where requests go, for messages (e.g. the base URL). */
  readonly endpoint: string;
  /** True when a reply needs the user (the copy/paste bridge): no spinner then. */
  readonly waitsForUser?: boolean;
  stream(request: ChatRequest): AsyncIterable<StreamEvent>;
}

/** Limits of one task. */
export interface RunLimits {
  /** Model replies allowed for one user message (default 25). */
  maxTurns: number;
  /** Consecutive invalid tool calls that end the task (default 3). */
  maxParseErrors: number;
}

/** How a task ended. */
export type Outcome =
  | { kind: "answered"; text: string }
  | { kind: "completed"; result: string }
  | { kind: "max_turns"; turns: number }
  | { kind: "parse_errors"; count: number }
  | { kind: "provider_error"; error: ProviderError }
  | { kind: "aborted" };

/** What the loop reports to the user interface, in order. */
export type AgentEvent =
  | { type: "turn_start"; turn: number }
  /**
   * Waiting for the model; `task` says what for when it is not the reply
   * itself; `waitsForUser` when the provider asks the user (the bridge).
   */
  | { type: "waiting"; model: string; task?: string; waitsForUser?: boolean }
  /** Prose of the reply (never raw tool-call XML). */
  | { type: "text"; text: string }
  /** A one-line live summary of a call that is still streaming. */
  | { type: "call_progress"; summary: string }
  /** Reasoning of the reply (a delta field or `<think>`), shown dimmed and folded. */
  | { type: "reasoning"; text: string }
  /** `context`: tokens the conversation now takes, and the model's context window. */
  | { type: "reply_end"; usage?: Usage; context?: { used: number; window: number } }
  | { type: "parse_error"; kind: string; message: string; consecutive: number }
  | { type: "tool_start"; tool: string; summary: string }
  | { type: "verdict"; gate: string; action: string; reason?: string; rule?: string }
  | { type: "tool_end"; tool: string; ok: boolean; display: string; ms: number }
  | { type: "done"; outcome: Outcome }
  /** The model-visible conversation was made smaller (the session file keeps everything). */
  | {
    type: "compacted";
    /** Tokens before and after. */
    before: number;
    after: number;
    /** Tool outputs shortened, and messages replaced by a summary. */
    shortened: number;
    summarised: number;
  }
  /** A failed request will be retried after `waitMs`. */
  | { type: "retry_wait"; attempt: number; max: number; waitMs: number; reason: string }
  /** The loop moved to another state (`--debug` logs and times these). */
  | { type: "state"; state: LoopState }
  /** What the parser made of the whole reply; `ms`: its final step, after the stream ended. */
  | { type: "parsed"; result: ParseResult; ms: number };

/**
 * States of the loop that `--debug` times. `waiting` is also marked by the
 * `waiting` event and `gating` by `tool_start`; `recording` comes from the
 * recorder itself.
 */
export type LoopState =
  | "waiting"
  | "streaming"
  | "parsing"
  | "gating"
  | "running"
  | "recording"
  | "idle";
