/**
 * The progress display's clock (`progress.ts`): wall time, timers that keep
 * no process alive (its `DueTimer` may outlive every wait), intervals
 * for the spinner's elapsed time.
 *
 * @module
 */
import type { TimerClock } from "../../core/llm/due_timer.ts";

/** Time and timers, injectable so tests do not wait. */
export interface ProgressClock extends TimerClock {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** The real clock; its timers never keep the process alive. */
export const realClock: ProgressClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    Deno.unrefTimer(handle);
    return handle;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};
