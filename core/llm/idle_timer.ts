/**
 * The idle timeout of a streamed reply (`idleTimeoutMs`): no data from the
 * server for that long aborts the request.
 *
 * @module
 */

/**
 * Aborts its signal when armed for longer than `ms` without being disarmed.
 * A reply re-arms it for every chunk, so it keeps one timer per reply rather
 * than one per chunk (a timer costs tens of microseconds there, a clock read
 * well under one): each arm notes the time, and a timer that comes due early
 * waits again for what is left. {@link stop} clears it for good.
 */
export class IdleTimer {
  readonly #controller = new AbortController();
  readonly #ms: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the last arm happened; -1 while disarmed. */
  #armedAt = -1;
  fired = false;

  constructor(ms: number | undefined) {
    this.#ms = ms;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  arm(): void {
    if (this.#ms === undefined || this.fired) return;
    this.#armedAt = performance.now();
    if (this.#timer === undefined) this.#wait(this.#ms);
  }

  disarm(): void {
    this.#armedAt = -1;
  }

  /** Disarms and clears the timer (nothing keeps the process waiting on it). */
  stop(): void {
    this.#armedAt = -1;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #wait(ms: number): void {
    this.#timer = setTimeout(() => this.#due(), ms);
  }

  #due(): void {
    this.#timer = undefined;
    if (this.#armedAt < 0) return; // the next arm starts a timer again
    const left = this.#armedAt + this.#ms! - performance.now();
    if (left > 0) return this.#wait(left);
    this.fired = true;
    this.#controller.abort();
  }
}
