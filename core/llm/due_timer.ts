/**
 * A timer that is moved often and fires rarely: the idle timeout of a
 * streamed reply (`idle_timer.ts`, moved at every chunk) and the progress
 * display's threshold (`cli/ui/progress.ts`, moved at every wait). Setting
 * and clearing a timer each time costs tens of microseconds on a turn (Deno's
 * timers are Node's); a {@link DueTimer} keeps one timer set, and when it
 * comes due early it waits again for what is left, or stops when nothing is
 * due.
 *
 * @example
 * ```ts
 * const t = new DueTimer(monotonicClock, () => console.log("quiet for 5 s"));
 * t.at(5000); // again at every chunk: no new timer
 * t.stop();
 * ```
 * @module
 */

/** Time and timers, injectable so tests do not wait. */
export interface TimerClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The process's monotonic clock and its timers. */
export const monotonicClock: TimerClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Calls `fn` once the time given to {@link at} has passed, unless {@link cancel}ed first. */
export class DueTimer {
  readonly #clock: TimerClock;
  readonly #fn: () => void;
  /** The pending timer, and when it fires. */
  #timer: unknown = null;
  #timerAt = 0;
  /** When `fn` is due; null when it is not. */
  #due: number | null = null;

  constructor(clock: TimerClock, fn: () => void) {
    this.#clock = clock;
    this.#fn = fn;
  }

  /** `fn` is due `delay` ms from now (instead of any earlier time given). */
  at(delay: number): void {
    this.#due = this.#clock.now() + delay;
    if (this.#timer !== null && this.#timerAt <= this.#due) return;
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#wait(delay);
  }

  /** `fn` is not due (a pending timer finds nothing to do). */
  cancel(): void {
    this.#due = null;
  }

  /** Not due, and the pending timer cleared (nothing is left waiting). */
  stop(): void {
    this.#due = null;
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #wait(ms: number): void {
    this.#timerAt = this.#clock.now() + ms;
    this.#timer = this.#clock.setTimeout(() => this.#fire(), ms);
  }

  #fire(): void {
    this.#timer = null;
    if (this.#due === null) return;
    const left = this.#due - this.#clock.now();
    if (left > 0) return this.#wait(left);
    this.#due = null;
    this.#fn();
  }
}
