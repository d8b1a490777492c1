/**
 * Statistics over recorded sessions: per tool, per session, per model.
 *
 * A tool call is exactly one of: `approved` (every gate passed; it ran or was
 * simulated), `blocked` (the security gate denied it), `denied` (another gate
 * or the user denied it), or `invalid` (its arguments failed validation, so
 * no gate saw it). `errors` counts approved calls whose result was a failure.
 * Durations are the tool times of approved calls. Parse errors are the
 * parser's errors (recorded as system events) plus invalid calls.
 *
 * @example
 * ```ts
 * const stats = computeStats(await Promise.all(paths.map(loadSession)));
 * io.out(formatStats(stats));
 * ```
 * @module
 */
import type { SessionFile, SessionMessage } from "../../interfaces/history.ts";
import { textTable } from "./text_table.ts";
import { computeDialects, type DialectStats, formatDialects } from "./dialect_stats.ts";

/** Per-tool figures. */
export interface ToolStats {
  tool: string;
  calls: number;
  approved: number;
  denied: number;
  blocked: number;
  invalid: number;
  errors: number;
  /** Mean tool time of approved calls (ms), null when none ran. */
  meanMs: number | null;
  /** 95th percentile (nearest rank) of the same times (ms). */
  p95Ms: number | null;
}

/** Per-session figures, from the session's totals. */
export interface SessionStats {
  id: string;
  timestamp: string;
  model: string;
  projectPath: string;
  turns: number;
  totalTokens: number;
  durationMs: number;
  toolCalls: number;
  parseErrors: number;
}

/** Per-model figures. */
export interface ModelStats {
  model: string;
  sessions: number;
  turns: number;
  totalTokens: number;
  toolCalls: number;
  parseErrors: number;
  /** Parse errors by kind (`unclosed`, `invalid_args`…). */
  parseErrorKinds: Record<string, number>;
}

/** Everything `minoc history stats` shows. */
export interface HistoryStats {
  tools: ToolStats[];
  sessions: SessionStats[];
  models: ModelStats[];
  /** Dialect use and parse-error rate per model. */
  dialects: DialectStats[];
}

const PARSE_EVENTS = new Set(["unknown_tool", "unclosed", "multiple_tool_calls", "missing_param"]);

/** One tool call with the response that followed it. */
interface CallRecord {
  tool: string;
  outcome: "approved" | "denied" | "blocked" | "invalid";
  ok: boolean;
  ms: number | undefined;
}

/** Computes the statistics of `sessions`; tools and models sorted by name. */
export function computeStats(sessions: readonly SessionFile[]): HistoryStats {
  const tools = new Map<string, { stats: ToolStats; times: number[] }>();
  const models = new Map<string, ModelStats>();
  const rows: SessionStats[] = [];
  for (const s of sessions) {
    const calls = callsOf(s.messages);
    for (const c of calls) addCall(tools, c);
    const kinds = parseErrorKinds(s.messages);
    const parseErrors = Object.values(kinds).reduce((a, b) => a + b, 0);
    const row: SessionStats = {
      id: s.sessionId,
      timestamp: s.timestamp,
      model: s.model,
      projectPath: s.projectPath,
      turns: s.metadata.turns,
      totalTokens: s.metadata.totalTokens,
      durationMs: s.metadata.duration,
      toolCalls: calls.length,
      parseErrors,
    };
    rows.push(row);
    addModel(models, row, kinds);
  }
  return {
    tools: [...tools.values()].map(finishTool).sort((a, b) => a.tool.localeCompare(b.tool)),
    sessions: rows.sort((a, b) =>
      a.timestamp.localeCompare(b.timestamp) || a.id.localeCompare(b.id)
    ),
    models: [...models.values()].sort((a, b) => a.model.localeCompare(b.model)),
    dialects: computeDialects(sessions),
  };
}

/** Pairs each tool_call with the tool_response that follows it. */
function callsOf(messages: readonly SessionMessage[]): CallRecord[] {
  const out: CallRecord[] = [];
  let open: CallRecord | undefined;
  for (const m of messages) {
    if (m.role === "tool_call" && m.call) {
      open = { tool: m.call.tool, outcome: outcomeOf(m), ok: true, ms: undefined };
      out.push(open);
    } else if (m.role === "tool_response" && open) {
      open.ok = m.ok !== false;
      open.ms = m.toolMs;
      open = undefined;
    }
  }
  return out;
}

function outcomeOf(m: SessionMessage): CallRecord["outcome"] {
  const verdicts = m.verdicts ?? [];
  if (verdicts.length === 0) return "invalid";
  if (verdicts.some((v) => v.action === "deny" && v.gate === "security")) return "blocked";
  if (verdicts.some((v) => v.action === "deny")) return "denied";
  return "approved";
}

function addCall(tools: Map<string, { stats: ToolStats; times: number[] }>, c: CallRecord): void {
  let t = tools.get(c.tool);
  if (t === undefined) {
    t = { stats: emptyTool(c.tool), times: [] };
    tools.set(c.tool, t);
  }
  t.stats.calls++;
  t.stats[c.outcome]++;
  if (c.outcome !== "approved") return;
  if (!c.ok) t.stats.errors++;
  if (c.ms !== undefined) t.times.push(c.ms);
}

function emptyTool(tool: string): ToolStats {
  return {
    tool,
    calls: 0,
    approved: 0,
    denied: 0,
    blocked: 0,
    invalid: 0,
    errors: 0,
    meanMs: null,
    p95Ms: null,
  };
}

function finishTool(t: { stats: ToolStats; times: number[] }): ToolStats {
  const times = [...t.times].sort((a, b) => a - b);
  if (times.length === 0) return t.stats;
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { ...t.stats, meanMs: mean, p95Ms: percentile(times, 95) };
}

/** Nearest-rank percentile of ascending `sorted` (not empty). */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

function parseErrorKinds(messages: readonly SessionMessage[]): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const m of messages) {
    const kind = m.role === "system" && m.event && PARSE_EVENTS.has(m.event)
      ? m.event
      : m.role === "tool_response" && m.code === "invalid_args"
      ? "invalid_args"
      : undefined;
    if (kind) kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

function addModel(
  models: Map<string, ModelStats>,
  s: SessionStats,
  kinds: Record<string, number>,
): void {
  let m = models.get(s.model);
  if (m === undefined) {
    m = {
      model: s.model,
      sessions: 0,
      turns: 0,
      totalTokens: 0,
      toolCalls: 0,
      parseErrors: 0,
      parseErrorKinds: {},
    };
    models.set(s.model, m);
  }
  m.sessions++;
  m.turns += s.turns;
  m.totalTokens += s.totalTokens;
  m.toolCalls += s.toolCalls;
  m.parseErrors += s.parseErrors;
  for (const [k, n] of Object.entries(kinds)) {
    m.parseErrorKinds[k] = (m.parseErrorKinds[k] ?? 0) + n;
  }
}

/** The three tables as plain text. */
export function formatStats(stats: HistoryStats): string {
  if (stats.sessions.length === 0) return "No sessions\n";
  const tools = textTable(
    ["tool", "calls", "approved", "denied", "blocked", "invalid", "errors", "mean ms", "p95 ms"],
    stats.tools.map((t) => [
      t.tool,
      t.calls,
      t.approved,
      t.denied,
      t.blocked,
      t.invalid,
      t.errors,
      round1(t.meanMs),
      round1(t.p95Ms),
    ]),
  );
  const sessions = textTable(
    ["session", "model", "turns", "tokens", "seconds", "tool calls", "parse errors"],
    stats.sessions.map((s) => [
      s.id,
      s.model,
      s.turns,
      s.totalTokens,
      round1(s.durationMs / 1000),
      s.toolCalls,
      s.parseErrors,
    ]),
  );
  const models = textTable(
    ["model", "sessions", "turns", "tokens", "tool calls", "parse errors", "by kind"],
    stats.models.map((m) => [
      m.model,
      m.sessions,
      m.turns,
      m.totalTokens,
      m.toolCalls,
      m.parseErrors,
      kindsText(m.parseErrorKinds),
    ]),
  );
  return `Tools\n${tools}\nSessions\n${sessions}\nModels\n${models}\n${
    formatDialects(stats.dialects)
  }`;
}

function round1(n: number | null): number | null {
  return n === null ? null : Math.round(n * 10) / 10;
}

function kindsText(kinds: Record<string, number>): string {
  const parts = Object.entries(kinds).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) =>
    `${k} ${n}`
  );
  return parts.length ? parts.join(", ") : "-";
}
