/**
 * The clock of the progress display (`progress.ts`) and its one timer. A turn
 * begins and ends a wait several times (the model, each tool), and a timer set
 * and cleared for each costs tens of microseconds there; a {@link DueTimer}
 * keeps one timer set, and when it comes due early it waits again for what is
 * left of the current wait, or stops when nothing waits.
 *
 * @module
 */

/** Time and timers, injectable so tests do not wait. */
export interface ProgressClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** The real clock; its timers never keep the process alive (a {@link DueTimer}'s may outlive every wait). */
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

/** Calls `fn` once the time given to {@link at} has passed, unless {@link cancel}ed first. */
export class DueTimer {
  readonly #clock: ProgressClock;
  readonly #fn: () => void;
  /** The pending timer, and when it fires. */
  #timer: unknown = null;
  #timerAt = 0;
  /** When `fn` is due; null when it is not. */
  #due: number | null = null;

  constructor(clock: ProgressClock, fn: () => void) {
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
