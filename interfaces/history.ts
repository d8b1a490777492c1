/**
 * The session file format (extended over time, never broken) and the store
 * that records it.
 *
 * `.minoc/history/sessions/YYYY-MM-DD/session_<ID>.json`
 *
 * @module
 */
import type { Usage } from "./agent.ts";
import type { ToolCall, Verdict } from "./tool.ts";

/** Roles of recorded messages. */
export type SessionRole = "user" | "assistant" | "system" | "tool_call" | "tool_response";

/** One recorded message. Extra details depend on the role. */
export interface SessionMessage {
  role: SessionRole;
  content: string;
  /** ISO 8601. */
  timestamp: string;
  /** assistant: token usage of the reply. */
  usage?: Usage;
  /** assistant: milliseconds from the request to the reply's first text (time to first token). */
  firstTokenMs?: number;
  /** assistant: failed attempts the provider retried before the reply (absent when none). */
  retries?: number;
  /** assistant: milliseconds from request to the reply's end. */
  durationMs?: number;
  /** assistant: the tool-call dialect the reply was parsed from (e.g. "canonical", "hermes_json"). */
  dialect?: string;
  /** assistant: the reply's reasoning text (from `<think>` or a reasoning delta field). */
  reasoning?: string;
  /** tool_call: the parsed call. */
  call?: ToolCall;
  /** tool_call: every gate's verdict, in order. */
  verdicts?: Verdict[];
  /** tool_call: the rule that allowed it, if any. */
  allowedBy?: string;
  /** tool_response: whether the tool succeeded, its error code, its time. */
  ok?: boolean;
  code?: string;
  toolMs?: number;
  /** tool_response: ids of the undo backups the call made. */
  backupIds?: string[];
  /** tool_response: the tool's name. */
  tool?: string;
  /** system: a parse error kind, a provider error, a notice. */
  event?: string;
  /** system: structured details of the event (e.g. a workflow's plan, budgets, blackboard). */
  data?: Record<string, unknown>;
}

/** Totals kept in the session file. */
export interface SessionMetadata {
  totalTokens: number;
  promptTokens: number;
  completionTokens: number;
  /** Milliseconds from the session's start to its last update. */
  duration: number;
  turns: number;
  toolCalls: number;
  parseErrors: number;
  /** Files created, modified or deleted (relative to projectPath). */
  filesChanged: string[];
  [key: string]: unknown;
}

/** The whole session file. */
export interface SessionFile {
  sessionId: string;
  /** ISO 8601 start time. */
  timestamp: string;
  model: string;
  systemPrompt: string;
  projectPath: string;
  mode: "agent" | "plan";
  messages: SessionMessage[];
  metadata: SessionMetadata;
}

/** Records one session; every call leaves a valid JSON file on disk. */
export interface SessionRecorder {
  readonly sessionId: string;
  /** Path of the session file, or null when recording is off. */
  readonly path: string | null;
  /** Adds one message; `totals` are merged into the metadata in the same write. */
  append(
    message: Omit<SessionMessage, "timestamp">,
    totals?: Partial<SessionMetadata>,
  ): Promise<void>;
  /** Merges totals into the metadata. */
  update(metadata: Partial<SessionMetadata>): Promise<void>;
  /** Sets the system prompt (known once the session's context is built). */
  setSystemPrompt(prompt: string): Promise<void>;
  close(): Promise<void>;
  snapshot(): SessionFile;
}
