/**
 * Folds scanned sessions into the report's aggregates. Memory is bounded by
 * the number of tools, models and days (small), the capped top-N counters
 * and one small row per listed session, never by the number of messages.
 *
 * @module
 */
import type { SessionMetadata } from "../../../interfaces/history.ts";
import { LogHistogram, TopCounter } from "./counters.ts";
import {
  type CallOutcome,
  type CommandRow,
  type ModelRow,
  noOutcomes,
  type OutcomeCounts,
  type ReportData,
  type SessionRow,
  type ToolRow,
  TURN_BUCKETS,
} from "./data.ts";
import type { SessionScan } from "./scan.ts";

/** Tools charted by name over time; the rest are summed as "other". */
const CHARTED_TOOLS = 10;
const TOP_ROWS = 25;
const COUNTER_KEYS = 20_000;

interface ToolAcc {
  outcomes: OutcomeCounts;
  deniedBy: Record<string, number>;
  times: LogHistogram;
}

interface ModelAcc {
  row: ModelRow;
  ttft: LogHistogram;
  tps: LogHistogram;
}

/** Accumulates sessions; {@link finish} gives the totals as report data. */
export class ReportAggregate {
  readonly #tools = new Map<string, ToolAcc>();
  readonly #models = new Map<string, ModelAcc>();
  /** day → tool → calls. */
  readonly #days = new Map<string, Map<string, number>>();
  readonly #commands = new TopCounter(COUNTER_KEYS, () => ({ error: 0, denied: 0, blocked: 0 }));
  readonly #files = new TopCounter(COUNTER_KEYS, () => ({ sessions: 0 }));
  readonly #rows: SessionRow[] = [];
  #notListed = 0;
  readonly totals = {
    sessions: 0,
    messages: 0,
    calls: 0,
    tokensIn: 0,
    tokensOut: 0,
    unreadable: 0,
  };

  constructor(readonly maxRows: number) {}

  /** Adds one session's scan; `row` is its table row (already scrubbed). */
  add(scan: SessionScan, metadata: Partial<SessionMetadata>, row: SessionRow): void {
    const t = this.totals;
    t.sessions++;
    t.messages += scan.messages;
    t.calls += scan.calls.length;
    t.tokensIn += scan.tokensIn;
    t.tokensOut += scan.tokensOut;
    const model = this.#model(scan.header.model);
    this.#addModel(model, scan);
    const day = scan.header.timestamp.slice(0, 10);
    for (const call of scan.calls) {
      this.#addCall(call.tool, call.outcome, call.gate, call.ms);
      model.row.outcomes[call.outcome]++;
      this.#perDay(day, call.tool);
      if (call.command && ["error", "denied", "blocked"].includes(call.outcome)) {
        this.#commands.add(call.command, call.outcome as keyof CommandRow & CallOutcome);
      }
    }
    for (const file of metadata.filesChanged ?? []) {
      this.#files.add(fileKey(row.project, scan.scrub(String(file))), "sessions");
    }
    if (this.#rows.length < this.maxRows) this.#rows.push(row);
    else this.#notListed++;
  }

  /** Counts a file that could not be read. */
  unreadable(): void {
    this.totals.unreadable++;
  }

  /** The report data (without filters, time and transcripts, which the caller adds). */
  finish(): Omit<ReportData, "generatedAt" | "filters" | "transcripts"> {
    const days = [...this.#days.keys()].sort();
    return {
      totals: { ...this.totals },
      days,
      callsPerDay: this.#callsPerDay(days),
      tools: [...this.#tools].map(([tool, a]) => toolRow(tool, a))
        .sort((a, b) => sum(b.outcomes) - sum(a.outcomes) || a.tool.localeCompare(b.tool)),
      models: [...this.#models.values()].map(modelRow)
        .sort((a, b) => b.sessions - a.sessions || a.model.localeCompare(b.model)),
      commands: this.#commands.top(TOP_ROWS).map(({ key, row }) => ({ command: key, ...row })),
      files: this.#files.top(TOP_ROWS).map(({ key, row }) => ({ path: key, ...row })),
      sessions: this.#rows,
      sessionsNotListed: this.#notListed,
    };
  }

  #addCall(tool: string, outcome: CallOutcome, gate: string | undefined, ms?: number): void {
    let acc = this.#tools.get(tool);
    if (!acc) {
      acc = { outcomes: noOutcomes(), deniedBy: {}, times: new LogHistogram() };
      this.#tools.set(tool, acc);
    }
    acc.outcomes[outcome]++;
    if (gate) acc.deniedBy[gate] = (acc.deniedBy[gate] ?? 0) + 1;
    if (ms !== undefined && (outcome === "ok" || outcome === "error" || outcome === "undone")) {
      acc.times.add(ms);
    }
  }

  #perDay(day: string, tool: string): void {
    let tools = this.#days.get(day);
    if (!tools) {
      tools = new Map();
      this.#days.set(day, tools);
    }
    tools.set(tool, (tools.get(tool) ?? 0) + 1);
  }

  #callsPerDay(days: string[]): Record<string, number[]> {
    const ranked = [...this.#tools].sort((a, b) => sum(b[1].outcomes) - sum(a[1].outcomes));
    const named = new Set(ranked.slice(0, CHARTED_TOOLS).map(([tool]) => tool));
    const out: Record<string, number[]> = {};
    for (const tool of named) out[tool] = days.map(() => 0);
    if (ranked.length > CHARTED_TOOLS) out.other = days.map(() => 0);
    days.forEach((day, i) => {
      for (const [tool, n] of this.#days.get(day) ?? []) {
        out[named.has(tool) ? tool : "other"][i] += n;
      }
    });
    return out;
  }

  #model(name: string): ModelAcc {
    let acc = this.#models.get(name);
    if (!acc) {
      acc = { row: emptyModel(name), ttft: new LogHistogram(), tps: new LogHistogram() };
      this.#models.set(name, acc);
    }
    return acc;
  }

  #addModel(acc: ModelAcc, scan: SessionScan): void {
    const m = acc.row;
    m.sessions++;
    m.tasks += scan.taskTurns.length;
    m.tokensIn += scan.tokensIn;
    m.tokensOut += scan.tokensOut;
    m.retries += scan.retries;
    m.userRetries += scan.userRetries;
    m.providerErrors += scan.providerErrors;
    for (const turns of scan.taskTurns) {
      m.turns += turns;
      if (turns > 0) m.turnsPerTask[turnBucket(turns)]++;
    }
    for (const [kind, n] of Object.entries(scan.parseErrors)) {
      m.parseErrors[kind] = (m.parseErrors[kind] ?? 0) + n;
    }
    for (const r of scan.replies) {
      if (r.dialect) m.dialects[r.dialect] = (m.dialects[r.dialect] ?? 0) + 1;
      if (r.ttftMs !== undefined) acc.ttft.add(r.ttftMs);
      if (r.tokensPerSecond !== undefined) acc.tps.add(r.tokensPerSecond);
    }
  }
}

/** Index into {@link TURN_BUCKETS} for a task of `turns` turns (at least 1). */
export function turnBucket(turns: number): number {
  if (turns <= 3) return turns - 1;
  if (turns <= 5) return 3;
  if (turns <= 10) return 4;
  return turns <= 20 ? 5 : 6;
}

function emptyModel(model: string): ModelRow {
  return {
    model,
    sessions: 0,
    tasks: 0,
    turns: 0,
    tokensIn: 0,
    tokensOut: 0,
    outcomes: noOutcomes(),
    parseErrors: {},
    dialects: {},
    turnsPerTask: TURN_BUCKETS.map(() => 0),
    ttftP50: null,
    ttftP95: null,
    tokensPerSecond: null,
    retries: 0,
    userRetries: 0,
    providerErrors: 0,
  };
}

function modelRow(acc: ModelAcc): ModelRow {
  return {
    ...acc.row,
    ttftP50: round(acc.ttft.quantile(0.5)),
    ttftP95: round(acc.ttft.quantile(0.95)),
    tokensPerSecond: round(acc.tps.quantile(0.5)),
  };
}

function toolRow(tool: string, a: ToolAcc): ToolRow {
  return {
    tool,
    outcomes: a.outcomes,
    deniedBy: a.deniedBy,
    p50Ms: round(a.times.quantile(0.5)),
    p95Ms: round(a.times.quantile(0.95)),
  };
}

function fileKey(project: string, file: string): string {
  if (file.startsWith("/") || /^[A-Za-z]:[\\/]/.test(file) || file.startsWith("~")) return file;
  const base = project.split(/[\\/]/).filter(Boolean).at(-1) ?? project;
  return `${base}/${file}`;
}

function sum(o: OutcomeCounts): number {
  return Object.values(o).reduce((a, b) => a + b, 0);
}

function round(n: number | null): number | null {
  return n === null ? null : Math.round(n * 10) / 10;
}
