/**
 * Per-phase timings and errors of debug mode: the `summary {json}` record
 * {@link DebugTrace} writes at the end of each task, and `minoc debug last`,
 * which reads those records back from `debug.log` (rotated files included)
 * and sums up the last session that has any.
 *
 * @example
 * ```ts
 * const last = await lastSessionSummary(homePaths(home).logs);
 * if (last) console.log(formatSessionSummary(last));
 * ```
 * @module
 */
import { join } from "node:path";
import { textTable } from "./text_table.ts";

/** The phases debug mode times, in the order they are shown. */
export const PHASES = ["model", "first token", "parse", "gates", "tool", "record"] as const;

/** One timed phase. */
export type PhaseName = typeof PHASES[number];

/** How often a phase ran and how long it took. */
export interface PhaseStats {
  count: number;
  totalMs: number;
  maxMs: number;
}

/** Something that went wrong in a task. */
export interface DebugError {
  /** `provider`, `tool`, a parse error kind, `max_turns`… */
  kind: string;
  message: string;
}

/** What one task's `summary` record holds. */
export interface TaskSummary {
  session: string;
  /** `performance.now()` at the task's first turn (not written). */
  startedAt: number;
  turns: number;
  /** Wall time of the task. */
  ms: number;
  outcome: string;
  phases: Partial<Record<PhaseName, PhaseStats>>;
  errors: DebugError[];
}

/** Every task of one session, summed up. */
export interface SessionDebugSummary {
  sessionId: string;
  tasks: number;
  turns: number;
  ms: number;
  outcomes: string[];
  phases: Partial<Record<PhaseName, PhaseStats>>;
  errors: DebugError[];
}

/** A summary with nothing counted yet. */
export function emptySummary(session: string): TaskSummary {
  return {
    session,
    startedAt: performance.now(),
    turns: 0,
    ms: 0,
    outcome: "",
    phases: {},
    errors: [],
  };
}

/** Counts one run of `name` that took `ms`. */
export function addTiming(s: { phases: TaskSummary["phases"] }, name: PhaseName, ms: number): void {
  const p = s.phases[name] ??= { count: 0, totalMs: 0, maxMs: 0 };
  p.count++;
  p.totalMs = round(p.totalMs + ms);
  p.maxMs = round(Math.max(p.maxMs, ms));
}

/** `0.12 ms`, `12.3 ms`, `1.23 s`. */
export function formatMs(ms: number): string {
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

const SUMMARY_LINE = /minoc·debug·agent: summary (\{.*\})\s*$/;

/** The `summary` records in a debug log's text, in order; other lines are skipped. */
export function parseSummaries(text: string): Omit<TaskSummary, "startedAt">[] {
  const out: Omit<TaskSummary, "startedAt">[] = [];
  for (const line of text.split("\n")) {
    const m = SUMMARY_LINE.exec(line);
    if (!m) continue;
    try {
      const value = JSON.parse(m[1]);
      if (typeof value?.session === "string" && typeof value.phases === "object") out.push(value);
    } catch {
      // a line cut by a crash: skip it
    }
  }
  return out;
}

/**
 * The last session with `summary` records in `<logsDir>/debug.log` and its
 * rotated files, or null when there is none.
 */
export async function lastSessionSummary(logsDir: string): Promise<SessionDebugSummary | null> {
  const records: Omit<TaskSummary, "startedAt">[] = [];
  for (const name of ["debug.log.3", "debug.log.2", "debug.log.1", "debug.log"]) {
    try {
      records.push(...parseSummaries(await Deno.readTextFile(join(logsDir, name))));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  const last = records.at(-1);
  if (!last) return null;
  const mine = records.filter((r) => r.session === last.session);
  const total: SessionDebugSummary = {
    sessionId: last.session,
    tasks: mine.length,
    turns: 0,
    ms: 0,
    outcomes: [],
    phases: {},
    errors: [],
  };
  for (const r of mine) {
    total.turns += r.turns;
    total.ms += r.ms;
    total.outcomes.push(r.outcome);
    total.errors.push(...r.errors);
    for (const name of PHASES) {
      const p = r.phases[name];
      if (!p) continue;
      const t = total.phases[name] ??= { count: 0, totalMs: 0, maxMs: 0 };
      t.count += p.count;
      t.totalMs = round(t.totalMs + p.totalMs);
      t.maxMs = Math.max(t.maxMs, p.maxMs);
    }
  }
  return total;
}

/** The human-readable form of `minoc debug last`. */
export function formatSessionSummary(s: SessionDebugSummary): string {
  const head = `Session ${s.sessionId}: ${s.tasks} task${s.tasks === 1 ? "" : "s"}, ` +
    `${s.turns} turn${s.turns === 1 ? "" : "s"}, ${formatMs(s.ms)} (${s.outcomes.join(", ")})\n`;
  const rows = PHASES.filter((n) => s.phases[n]).map((n) => {
    const p = s.phases[n]!;
    return [n, p.count, formatMs(p.totalMs), formatMs(p.totalMs / p.count), formatMs(p.maxMs)];
  });
  const table = rows.length
    ? textTable(["phase", "count", "total", "average", "max"], rows)
    : "No timings.\n";
  const errors = s.errors.length === 0 ? "No errors.\n" : `Errors (${s.errors.length}):\n` +
    s.errors.map((e) => `  ${e.kind}: ${e.message.split("\n")[0]}\n`).join("");
  return head + table + errors;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
