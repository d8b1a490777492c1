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

/** The spinner itself (ora on stderr by default). */
export interface SpinnerPort {
  start(text: string): void;
  setText(text: string): void;
  stop(): void;
}

/** Time and timers, injectable so tests do not wait. */
export interface ProgressClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
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

const realClock: ProgressClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

/** Creates the progress display. */
export function createProgress(o: ProgressOptions): ProgressView {
  const clock = o.clock ?? realClock;
  const afterMs = o.afterMs ?? progressDelay();
  const makeSpinner = o.spinner ?? oraSpinner;
  let enabled = o.enabled;
  let task: Task | null = null;
  let pendingTool: string | null = null;
  let timer: unknown = null;
  let tick: unknown = null;
  let spinner: SpinnerPort | null = null;
  let generation = 0;
  let suspended = 0;

  const text = (t: Task) => {
    const now = clock.now();
    const elapsed = `${t.label} · ${formatElapsed(now - t.startedAt)}`;
    if (!t.phase) return elapsed;
    const done = now - t.phase.startedAt;
    const share = Math.min(1, done / Math.max(1, t.phase.totalMs));
    const left = Math.max(0, t.phase.totalMs - done);
    return `${elapsed} · ${Math.floor(share * 100)}% · ~${formatElapsed(left)} left`;
  };
  const update = () => {
    if (!task) return;
    const p = task.phase;
    if (p && clock.now() - p.startedAt >= p.totalMs) {
      task = { label: task.base, base: task.base, startedAt: task.startedAt };
    }
    spinner?.setText(text(task));
  };
  const hide = () => {
    generation++;
    if (tick !== null) clock.clearInterval(tick);
    tick = null;
    spinner?.stop();
    spinner = null;
  };
  const disarm = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
  };
  const show = async () => {
    timer = null;
    if (!task || !enabled || suspended > 0 || spinner) return;
    const mine = ++generation;
    const s = await makeSpinner();
    if (mine !== generation || !task) return;
    spinner = s;
    s.start(text(task));
    tick = clock.setInterval(update, 1000);
  };
  const arm = (delay = afterMs) => {
    disarm();
    if (task && enabled && suspended === 0) timer = clock.setTimeout(() => void show(), delay);
  };
  const view: ProgressView = {
    get enabled() {
      return enabled;
    },
    begin(label, b = {}) {
      view.end();
      const now = clock.now();
      const phase = b.totalMs === undefined ? undefined : { startedAt: now, totalMs: b.totalMs };
      task = { label, base: label, startedAt: now, phase };
      arm();
    },
    end() {
      disarm();
      hide();
      task = null;
    },
    touch() {
      if (!task) return;
      hide();
      arm();
    },
    async suspend(fn) {
      suspended++;
      disarm();
      hide();
      try {
        return await fn();
      } finally {
        suspended--;
        arm();
      }
    },
    setEnabled(on) {
      enabled = on;
      if (on) return arm();
      disarm();
      hide();
    },
    onEvent(ev) {
      follow(ev);
    },
  };
  const follow = (ev: AgentEvent) => {
    switch (ev.type) {
      case "waiting":
        return view.begin(ev.task ?? `waiting for ${ev.model}`);
      case "retry_wait":
        return retryPhase(ev);
      case "tool_start":
        view.end();
        pendingTool = toolTask(ev.summary);
        return;
      case "verdict":
        // The gates have decided (and any prompt is answered): the tool runs now.
        if (pendingTool !== null) view.begin(pendingTool);
        pendingTool = null;
        return;
      case "text":
      case "call_progress":
      case "reply_end":
      case "tool_end":
      case "parse_error":
      case "compacted":
      case "done":
        pendingTool = null;
        return view.end();
      default:
        return;
    }
  };
  const retryPhase = (ev: Extract<AgentEvent, { type: "retry_wait" }>) => {
    const now = clock.now();
    const startedAt = task?.startedAt ?? now;
    disarm();
    hide();
    task = {
      label: `retrying (attempt ${ev.attempt}/${ev.max}, ${ev.reason})`,
      base: task?.base ?? "waiting for the model",
      startedAt,
      phase: { startedAt: now, totalMs: ev.waitMs },
    };
    // The whole wait counts toward the threshold.
    arm(Math.max(0, afterMs - (now - startedAt)));
  };
  return view;
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
