/**
 * A clock for the progress display's tests (`ProgressClock`): time moves only
 * when a test calls {@link FakeClock.advance}.
 *
 * @module
 */
import type { ProgressClock } from "../../cli/ui/progress_clock.ts";

/** A clock whose time only moves when the test says so. */
export class FakeClock implements ProgressClock {
  time = 0;
  #next = 1;
  #timers = new Map<number, { at: number; fn: () => void; every?: number }>();

  now = () => this.time;
  setTimeout = (fn: () => void, ms: number) => this.#add(fn, ms);
  setInterval = (fn: () => void, ms: number) => this.#add(fn, ms, ms);
  clearTimeout = (h: unknown) => void this.#timers.delete(h as number);
  clearInterval = (h: unknown) => void this.#timers.delete(h as number);

  #add(fn: () => void, ms: number, every?: number): number {
    const id = this.#next++;
    this.#timers.set(id, { at: this.time + ms, fn, every });
    return id;
  }

  /** Moves time on, firing due timers in order. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    while (true) {
      const due = [...this.#timers].filter(([, t]) =>
        t.at <= end
      ).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [id, t] = due;
      this.time = t.at;
      if (t.every) t.at += t.every;
      else this.#timers.delete(id);
      t.fn();
      await Promise.resolve();
      await Promise.resolve();
    }
    this.time = end;
  }
}
