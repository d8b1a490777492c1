/**
 * The data a history report carries: aggregates only (bounded whatever the
 * history's size), one row per session, and the transcripts chosen for
 * embedding. The page's script reads it from a JSON block.
 *
 * @module
 */

/** How one tool call ended, as the report counts it. */
export type CallOutcome =
  | "ok"
  | "error"
  | "denied"
  | "blocked"
  | "simulated"
  | "undone"
  | "invalid";

/** Every outcome, in the order charts stack them. */
export const OUTCOMES: readonly CallOutcome[] = [
  "ok",
  "error",
  "denied",
  "blocked",
  "simulated",
  "undone",
  "invalid",
];

/** Counts by outcome. */
export type OutcomeCounts = Record<CallOutcome, number>;

/** One tool's figures. */
export interface ToolRow {
  tool: string;
  outcomes: OutcomeCounts;
  /** Denials by the gate that denied (the security gate's are `blocked`). */
  deniedBy: Record<string, number>;
  /** Median and 95th percentile tool time of calls that ran (ms), null when none. */
  p50Ms: number | null;
  p95Ms: number | null;
}

/** One model's figures. */
export interface ModelRow {
  model: string;
  sessions: number;
  tasks: number;
  turns: number;
  tokensIn: number;
  tokensOut: number;
  outcomes: OutcomeCounts;
  parseErrors: Record<string, number>;
  /** Replies by tool-call dialect (recorded on assistant messages). */
  dialects: Record<string, number>;
  /** Tasks by turns taken, in the buckets of {@link TURN_BUCKETS}. */
  turnsPerTask: number[];
  /** Time to first token (ms): median and 95th percentile; null when not recorded. */
  ttftP50: number | null;
  ttftP95: number | null;
  /** Median output tokens per second; null when not recorded. */
  tokensPerSecond: number | null;
  /** Failed requests the provider retried (recorded on replies as `retries`). */
  retries: number;
  /** Turns the user asked to retry (`/retry`). */
  userRetries: number;
  providerErrors: number;
}

/** Bucket labels of {@link ModelRow.turnsPerTask}. */
export const TURN_BUCKETS = ["1", "2", "3", "4–5", "6–10", "11–20", "21+"] as const;

/** A command that failed, was denied or was blocked. */
export interface CommandRow {
  command: string;
  error: number;
  denied: number;
  blocked: number;
}

/** A file and how many sessions changed it. */
export interface FileRow {
  path: string;
  sessions: number;
}

/** Where a session's transcript is. */
export type TranscriptPlace = "inline" | "file" | "none";

/** One row of the sessions table. */
export interface SessionRow {
  id: string;
  timestamp: string;
  project: string;
  model: string;
  mode: string;
  tasks: number;
  turns: number;
  outcome: string;
  tokensIn: number;
  tokensOut: number;
  calls: number;
  failedCalls: number;
  parseErrors: number;
  durationMs: number;
  /** The first request, cut short. */
  request: string;
  transcript: TranscriptPlace;
  /** For `file`: the transcript page, relative to the report. */
  href?: string;
}

/** One entry of a transcript. */
export type TranscriptItem =
  | { k: "user"; t: string; text: string }
  | {
    k: "assistant";
    t: string;
    text: string;
    reasoning?: string;
    dialect?: string;
    tokensIn?: number;
    tokensOut?: number;
    ms?: number;
    ttftMs?: number;
    retries?: number;
  }
  | {
    k: "call";
    t: string;
    tool: string;
    params: Record<string, string>;
    verdicts: { gate: string; action: string; reason?: string; rule?: string }[];
    allowedBy?: string;
    outcome: CallOutcome;
  }
  | { k: "result"; t: string; tool: string; ok: boolean; code?: string; ms?: number; text: string }
  | { k: "system"; t: string; event: string; text: string }
  | { k: "more"; count: number };

/** A session's transcript as the report shows it. */
export interface Transcript {
  id: string;
  model: string;
  project: string;
  timestamp: string;
  items: TranscriptItem[];
}

/** Everything the report page shows. */
export interface ReportData {
  generatedAt: string;
  filters: { since?: string; project?: string; model?: string; redactPaths: boolean };
  totals: {
    sessions: number;
    messages: number;
    calls: number;
    tokensIn: number;
    tokensOut: number;
    unreadable: number;
  };
  /** Days (`YYYY-MM-DD`, UTC) of the calls-over-time chart. */
  days: string[];
  /** Calls per day for each charted tool, aligned with `days` (small tools folded into "other"). */
  callsPerDay: Record<string, number[]>;
  tools: ToolRow[];
  models: ModelRow[];
  commands: CommandRow[];
  files: FileRow[];
  sessions: SessionRow[];
  /** Sessions beyond the table's limit, counted but not listed. */
  sessionsNotListed: number;
  transcripts: Record<string, Transcript>;
}

/** Zeroed outcome counts. */
export function noOutcomes(): OutcomeCounts {
  return { ok: 0, error: 0, denied: 0, blocked: 0, simulated: 0, undone: 0, invalid: 0 };
}
