/**
 * Debug mode's view of the loop, built from its events and a timed recorder:
 * writes every parse result, gate verdict (with its rule), state change and
 * per-phase timing to the debug log (category `["minoc", "debug", "agent"]`),
 * prints one compact line per phase to the terminal, and at the end of each
 * task writes one `summary {json}` record that `minoc debug last` reads.
 *
 * Phases: `model` (request to the end of the stream), `first token`,
 * `parse` (the parser's final step), `gates` (preview, gates and any prompt,
 * recording excluded), `tool`, `record` (session file writes).
 *
 * Phases are timed on a clock that stops while debug records are written, so
 * debug mode's own logging does not inflate them; a task's wall time is real.
 *
 * Only installed in debug mode: without it nothing is formatted or written.
 *
 * @example
 * ```ts
 * const trace = new DebugTrace({ sessionId, terminal: (l) => io.err(l + "\n") });
 * const recorder = trace.timeRecorder(inner);
 * const emit = (ev) => { render(ev); trace.event(ev); };
 * ```
 * @module
 */
import { getLogger } from "@logtape/logtape";
import type { AgentEvent, LoopState } from "../../interfaces/agent.ts";
import type { SessionRecorder } from "../../interfaces/history.ts";
import { debugWritingMs, writeRaw } from "./debug_write.ts";
import {
  addTiming,
  emptySummary,
  formatMs,
  type PhaseName,
  type TaskSummary,
} from "./debug_summary.ts";

/** The LogTape category of the loop's debug records. */
export const AGENT_DEBUG_CATEGORY = ["minoc", "debug", "agent"] as const;

/** Options of {@link DebugTrace}. */
export interface TraceOptions {
  sessionId: string;
  /** Receives one compact line per phase (no newline); absent: log only. */
  terminal?(line: string): void;
}

/** Turns loop events into debug records, timings and terminal lines. */
export class DebugTrace {
  readonly #log = getLogger([...AGENT_DEBUG_CATEGORY]);
  #state: LoopState = "idle";
  #since = clock();
  #waitingAt = 0;
  #gatingAt = 0;
  #verdicts: string[] = [];
  /** Recording time since the last phase line that could include it. */
  #recordMs = 0;
  #gateRecordMs = 0;
  #firstToken: number | null = null;
  /** Terminal lines held back until the renderer has finished its own output. */
  #pending: string[] = [];
  #summary: TaskSummary;

  constructor(private readonly options: TraceOptions) {
    this.#summary = emptySummary(options.sessionId);
  }

  /** Handles one loop event (call it after the renderer). */
  event(ev: AgentEvent): void {
    const now = clock();
    switch (ev.type) {
      case "turn_start":
        if (this.#summary.turns++ === 0) this.#summary.startedAt = performance.now();
        return this.#write(`turn ${ev.turn}`);
      case "waiting":
        this.#waitingAt = now;
        this.#firstToken = null;
        return this.#enter("waiting", now, ev.task ? `for ${ev.task}` : `for ${ev.model}`);
      case "state":
        this.#stateEvent(ev.state, now);
        return this.#enter(ev.state, now);
      case "parsed":
        this.#write(`parse result ${JSON.stringify(ev.result)}`);
        return this.#phase("parse", ev.ms, parsedText(ev.result));
      case "reply_end":
        this.#write(`reply end ${JSON.stringify({ usage: ev.usage ?? null })}`);
        this.#flush();
        return this.#enter("idle", now);
      case "tool_start":
        this.#gatingAt = now;
        this.#gateRecordMs = 0;
        this.#verdicts = [];
        this.#write(`tool call ${ev.summary}`);
        return this.#enter("gating", now);
      case "verdict":
        this.#verdicts.push(`${ev.gate} ${ev.action}`);
        return this.#write(`verdict ${JSON.stringify(ev)}`);
      case "tool_end":
        this.#write(`tool result ${JSON.stringify(ev)}`);
        if (!ev.ok) {
          this.#summary.errors.push({ kind: "tool", message: `${ev.tool}: ${ev.display}` });
        }
        this.#phase("tool", ev.ms, `${ev.tool} ${ev.ok ? "ok" : "failed"}`);
        this.#recordDone();
        this.#flush();
        return this.#enter("idle", now);
      case "parse_error":
        this.#summary.errors.push({ kind: ev.kind, message: ev.message });
        return this.#write(`parse error ${JSON.stringify(ev)}`);
      case "done":
        return this.#done(ev.outcome, now);
      case "text":
      case "reasoning":
      case "call_progress":
        return;
      default:
        return this.#write(`event ${JSON.stringify(ev)}`);
    }
  }

  /** Wraps `inner` so each write is timed as the `record` phase. */
  timeRecorder(inner: SessionRecorder): SessionRecorder {
    const timed = <A extends unknown[]>(fn: (...a: A) => Promise<void>) => async (...a: A) => {
      const prev = this.#state;
      this.#enter("recording", clock());
      const start = clock();
      try {
        await fn(...a);
      } finally {
        const end = clock();
        this.#recordMs += end - start;
        this.#gateRecordMs += end - start;
        this.#enter(prev, end);
      }
    };
    return {
      get sessionId() {
        return inner.sessionId;
      },
      get path() {
        return inner.path;
      },
      append: timed((m, totals) => inner.append(m, totals)),
      update: timed((m) => inner.update(m)),
      setSystemPrompt: timed((p) => inner.setSystemPrompt(p)),
      close: () => inner.close(),
      snapshot: () => inner.snapshot(),
    };
  }

  #enter(state: LoopState, now: number, detail = ""): void {
    if (state === this.#state) return;
    const ms = formatMs(now - this.#since);
    this.#write(`state ${this.#state} → ${state}${detail ? ` ${detail}` : ""} (after ${ms})`);
    this.#state = state;
    this.#since = now;
  }

  #stateEvent(state: LoopState, now: number): void {
    if (state === "streaming") {
      this.#firstToken = now - this.#waitingAt;
      this.#phase("first token", this.#firstToken, "", false);
    } else if (state === "parsing") {
      const first = this.#firstToken === null
        ? "no text"
        : `first token ${formatMs(this.#firstToken)}`;
      this.#phase("model", now - this.#waitingAt, first);
    } else if (state === "running") {
      this.#phase("gates", now - this.#gatingAt - this.#gateRecordMs, this.#verdicts.join(" · "));
      this.#flush();
    }
  }

  #recordDone(): void {
    if (this.#recordMs <= 0) return;
    this.#phase("record", this.#recordMs, "");
    this.#recordMs = 0;
  }

  #done(outcome: Extract<AgentEvent, { type: "done" }>["outcome"], now: number): void {
    this.#recordDone();
    this.#flush();
    if (outcome.kind === "provider_error") {
      this.#summary.errors.push({ kind: "provider", message: outcome.error.message });
    } else if (outcome.kind === "parse_errors" || outcome.kind === "max_turns") {
      this.#summary.errors.push({ kind: outcome.kind, message: `task stopped: ${outcome.kind}` });
    }
    this.#enter("idle", now);
    this.#summary.outcome = outcome.kind;
    this.#summary.ms = Math.round(performance.now() - this.#summary.startedAt);
    const { startedAt: _, ...record } = this.#summary;
    this.#write(`summary ${JSON.stringify(record)}`);
    this.#summary = emptySummary(this.options.sessionId);
  }

  #phase(name: PhaseName, ms: number, detail: string, show = true): void {
    addTiming(this.#summary, name, ms);
    this.#write(`timing ${name} ${ms.toFixed(2)} ms${detail ? ` ${detail}` : ""}`);
    if (show && this.options.terminal) {
      this.#pending.push(`⏱ ${name} ${formatMs(ms)}${detail ? ` · ${detail}` : ""}`);
    }
  }

  #flush(): void {
    for (const line of this.#pending) this.options.terminal?.(line);
    this.#pending = [];
  }

  #write(text: string): void {
    writeRaw(this.#log, text);
  }
}

function parsedText(result: Extract<AgentEvent, { type: "parsed" }>["result"]): string {
  if (result.kind === "call") return `call ${result.call.tool}`;
  if (result.kind === "none") return "no call";
  return `error ${result.error}`;
}

/** `performance.now()` minus the time spent writing debug records. */
function clock(): number {
  return performance.now() - debugWritingMs();
}
