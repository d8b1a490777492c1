/**
 * The progress spinner: any wait for the model or a tool that lasts longer
 * than a threshold (5 s) shows a spinner on stderr with the current task
 * ("waiting for gpt-4.1-mini", "running npm test"), the elapsed time and,
 * when the size of the work is known (a retry's wait), the share done and
 * the time left. It is driven by agent events, stops before streamed text,
 * and stays away while a prompt waits for the user.
 *
 * Nothing animates when stderr is not a terminal. The threshold comes from
 * `MINOC_PROGRESS_AFTER_MS` when set (for tests and demos).
 *
 * @example
 * ```ts
 * const progress = createProgress({ enabled: settings.progress });
 * const emit = (ev: AgentEvent) => { progress.onEvent(ev); render(ev); };
 * const answer = await progress.suspend(() => input({ message: "Name?" }));
 * ```
 * @module
 */
import process from "node:process";
import type { AgentEvent } from "../../interfaces/agent.ts";
import { DueTimer } from "../../core/llm/due_timer.ts";
import { type ProgressClock, realClock } from "./progress_clock.ts";
import { visible } from "../../core/protocol/visible.ts";

/** The spinner itself (ora on stderr by default). */
export interface SpinnerPort {
  start(text: string): void;
  setText(text: string): void;
  stop(): void;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** False with `--quiet`, `--no-progress` or `"progress": false`. */
  enabled: boolean;
  /** Waits shorter than this show nothing (default {@link progressDelay}). */
  afterMs?: number;
  clock?: ProgressClock;
  /** Makes the spinner (default: ora on stderr, silent when stderr is not a terminal). */
  spinner?: () => SpinnerPort | Promise<SpinnerPort>;
}

/** The progress display of one command. */
export interface ProgressView {
  /** Follows the agent's events: waits begin and end with them. */
  onEvent(event: AgentEvent): void;
  /** Starts timing a task; `totalMs` when its length is known. */
  begin(task: string, o?: { totalMs?: number }): void;
  /** Ends the current task and clears the spinner. */
  end(): void;
  /** Something was printed: clear the spinner; it comes back after another quiet threshold. */
  touch(): void;
  /** Runs `fn` (a prompt) with the spinner off. */
  suspend<T>(fn: () => Promise<T>): Promise<T>;
  setEnabled(on: boolean): void;
  readonly enabled: boolean;
}

/** The threshold: `MINOC_PROGRESS_AFTER_MS` when it is a whole number, else 5 s. */
export function progressDelay(env: Record<string, string | undefined> = Deno.env.toObject()) {
  const raw = env.MINOC_PROGRESS_AFTER_MS;
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : 5000;
}

/** `7 s`, `1m 05s`. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
}

interface Task {
  /** What the spinner says, and what it returns to after a timed phase. */
  label: string;
  base: string;
  startedAt: number;
  /** A timed phase of known length (a retry's wait). */
  phase?: { startedAt: number; totalMs: number };
}

/** Creates the progress display. */
export function createProgress(o: ProgressOptions): ProgressView {
  return new ProgressDisplay(o);
}

class ProgressDisplay implements ProgressView {
  readonly #clock: ProgressClock;
  readonly #afterMs: number;
  readonly #makeSpinner: () => SpinnerPort | Promise<SpinnerPort>;
  #enabled: boolean;
  #task: Task | null = null;
  #pendingTool: string | null = null;
  /** When the spinner is due for the current wait. */
  readonly #timer: DueTimer;
  #tick: unknown = null;
  #spinner: SpinnerPort | null = null;
  #generation = 0;
  #suspended = 0;

  constructor(o: ProgressOptions) {
    this.#clock = o.clock ?? realClock;
    this.#timer = new DueTimer(this.#clock, () => void this.#show());
    this.#afterMs = o.afterMs ?? progressDelay();
    this.#makeSpinner = o.spinner ?? oraSpinner;
    this.#enabled = o.enabled;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  begin(label: string, b: { totalMs?: number } = {}): void {
    this.end();
    const now = this.#clock.now();
    const phase = b.totalMs === undefined ? undefined : { startedAt: now, totalMs: b.totalMs };
    this.#task = { label, base: label, startedAt: now, phase };
    this.#arm();
  }

  end(): void {
    this.#disarm();
    this.#hide();
    this.#task = null;
  }

  touch(): void {
    if (!this.#task) return;
    this.#hide();
    this.#arm();
  }

  async suspend<T>(fn: () => Promise<T>): Promise<T> {
    this.#suspended++;
    this.#disarm();
    this.#hide();
    try {
      return await fn();
    } finally {
      this.#suspended--;
      this.#arm();
    }
  }

  setEnabled(on: boolean): void {
    this.#enabled = on;
    if (on) return this.#arm();
    this.#disarm();
    this.#hide();
  }

  onEvent(ev: AgentEvent): void {
    // Labels are made visible where they are drawn (#text): no copy of each event is needed.
    switch (ev.type) {
      case "waiting":
        // A provider that asks the user (the bridge's paste prompt) must not be drawn over.
        if (ev.waitsForUser) return this.end();
        return this.begin(ev.task ?? `waiting for ${ev.model}`);
      case "retry_wait":
        return this.#retryPhase(ev);
      case "tool_start":
        this.end();
        this.#pendingTool = toolTask(ev.summary);
        return;
      case "verdict":
        // The gates have decided (and any prompt is answered): the tool runs now.
        if (this.#pendingTool !== null) this.begin(this.#pendingTool);
        this.#pendingTool = null;
        return;
      case "text":
      case "reasoning":
      case "call_progress":
      case "reply_end":
      case "tool_end":
      case "parse_error":
      case "compacted":
      case "done":
        this.#pendingTool = null;
        return this.end();
      default:
        return;
    }
  }

  /** A retry's wait has a known length: show the share done and the time left. */
  #retryPhase(ev: Extract<AgentEvent, { type: "retry_wait" }>): void {
    const now = this.#clock.now();
    const startedAt = this.#task?.startedAt ?? now;
    this.#disarm();
    this.#hide();
    this.#task = {
      label: `retrying (attempt ${ev.attempt}/${ev.max}, ${ev.reason})`,
      base: this.#task?.base ?? "waiting for the model",
      startedAt,
      phase: { startedAt: now, totalMs: ev.waitMs },
    };
    // The whole wait counts toward the threshold.
    this.#arm(Math.max(0, this.#afterMs - (now - startedAt)));
  }

  #text(t: Task): string {
    const now = this.#clock.now();
    const elapsed = `${visible(t.label)} · ${formatElapsed(now - t.startedAt)}`;
    if (!t.phase) return elapsed;
    const done = now - t.phase.startedAt;
    const share = Math.min(1, done / Math.max(1, t.phase.totalMs));
    const left = Math.max(0, t.phase.totalMs - done);
    return `${elapsed} · ${Math.floor(share * 100)}% · ~${formatElapsed(left)} left`;
  }

  #update(): void {
    const t = this.#task;
    if (!t) return;
    if (t.phase && this.#clock.now() - t.phase.startedAt >= t.phase.totalMs) {
      this.#task = { label: t.base, base: t.base, startedAt: t.startedAt };
    }
    this.#spinner?.setText(this.#text(this.#task!));
  }

  #hide(): void {
    this.#generation++;
    if (this.#tick !== null) this.#clock.clearInterval(this.#tick);
    this.#tick = null;
    this.#spinner?.stop();
    this.#spinner = null;
  }

  #disarm(): void {
    this.#timer.cancel();
  }

  #arm(delay = this.#afterMs): void {
    if (this.#task && this.#enabled && this.#suspended === 0) this.#timer.at(delay);
    else this.#timer.cancel();
  }

  async #show(): Promise<void> {
    if (!this.#task || !this.#enabled || this.#suspended > 0 || this.#spinner) return;
    const mine = ++this.#generation;
    const s = await this.#makeSpinner();
    if (mine !== this.#generation || !this.#task) return;
    this.#spinner = s;
    s.start(this.#text(this.#task));
    this.#tick = this.#clock.setInterval(() => this.#update(), 1000);
  }
}

/** `running npm test` for a command, `running read_file a.ts` for other tools. */
export function toolTask(summary: string): string {
  const command = /^execute_command (.*)$/s.exec(summary);
  return `running ${command ? command[1] : summary}`;
}

async function oraSpinner(): Promise<SpinnerPort> {
  if (!Deno.stderr.isTerminal()) return { start() {}, setText() {}, stop() {} };
  const { default: ora } = await import("ora");
  const s = ora({ stream: process.stderr, discardStdin: false, isSilent: false });
  return {
    start: (t) => void s.start(t),
    setText: (t) => void (s.text = t),
    stop: () => void s.stop(),
  };
}

/** An event handler that feeds `progress` first (so the spinner stops before output), then `render`. */
export function withProgress(
  progress: ProgressView,
  render: (event: AgentEvent) => void,
): (event: AgentEvent) => void {
  return (event) => {
    progress.onEvent(event);
    render(event);
  };
}
