/**
 * The idle timeout of a streamed reply (`idleTimeoutMs`): no output from the
 * model for that long aborts the request (`openai.ts` arms it at each chunk
 * that brings news).
 *
 * @module
 */
import { DueTimer, monotonicClock } from "./due_timer.ts";

/** Aborts its signal when armed for longer than `ms` without being disarmed. */
export class IdleTimer {
  readonly #controller = new AbortController();
  readonly #ms: number | undefined;
  /** One timer a reply, however often it is armed (see due_timer.ts). */
  readonly #due = new DueTimer(monotonicClock, () => {
    this.fired = true;
    this.#controller.abort();
  });
  fired = false;

  constructor(ms: number | undefined) {
    this.#ms = ms;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  arm(): void {
    if (this.#ms === undefined || this.fired) return;
    this.#due.at(this.#ms);
  }

  disarm(): void {
    this.#due.cancel();
  }

  /** Disarms and clears the timer (nothing keeps the process waiting on it). */
  stop(): void {
    this.#due.stop();
  }
}
