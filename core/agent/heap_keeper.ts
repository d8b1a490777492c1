/**
 * Keeps a long session's resident memory flat. Each request of a session
 * carries the whole conversation, so each turn leaves a larger request body
 * behind (the copy `fetch` makes of it; the body itself is built in one buffer
 * the session reuses, request_body.ts). Those copies die at once, but their
 * memory goes back only slowly, and V8 runs a full collection only when the
 * JavaScript heap itself grows: over 200 turns dead bodies added ~50 MB to the
 * resident set before one came (issue 24).
 *
 * So while the agent waits on the model anyway — its reply has begun to
 * stream, the request is out — a session asks for a full collection once the
 * resident set has grown {@link GROWTH_BYTES} since the last one. It costs
 * ~5–10 ms of a model's reply time, every few dozen turns, and none of the
 * agent's own turn time. Where the collector cannot be reached (a runtime
 * without `node:v8`'s flags), nothing happens.
 *
 * @example
 * ```ts
 * const heap = new HeapKeeper();
 * // when a reply starts streaming:
 * heap.tend();
 * ```
 * @module
 */

/** Growth of the resident set, since the last collection, that asks for the next one. */
export const GROWTH_BYTES = 16 * 1024 * 1024;

/** One session's memory keeper; see the module notes. */
export class HeapKeeper {
  #floor: number | undefined;
  #collect: (() => void) | null | undefined;
  #busy = false;
  #growth: number;
  #rss: () => number;

  /** `growth` and `rss` are for tests; the defaults are {@link GROWTH_BYTES} and the process's resident set. */
  constructor(o: { growth?: number; rss?: () => number } = {}) {
    this.#growth = o.growth ?? GROWTH_BYTES;
    this.#rss = o.rss ?? (() => Deno.memoryUsage().rss);
  }

  /** Collections made so far. */
  collections = 0;

  /** Looks at the resident set (~10 µs) and collects when it grew enough; never throws. */
  async tend(): Promise<void> {
    if (this.#busy || this.#collect === null) return;
    const rss = this.#rss();
    if (this.#floor === undefined || rss < this.#floor) this.#floor = rss;
    if (rss - this.#floor < this.#growth) return;
    this.#busy = true;
    try {
      this.#collect ??= await fullCollector();
      if (this.#collect === null) return;
      this.#collect();
      this.collections++;
      this.#floor = this.#rss();
    } finally {
      this.#busy = false;
    }
  }
}

/**
 * V8's full collection, reached the way Node documents: the `expose-gc` flag
 * set at run time shows `gc` in contexts made after it. Null when that fails.
 */
async function fullCollector(): Promise<(() => void) | null> {
  try {
    const [{ default: v8 }, { default: vm }] = await Promise.all([
      import("node:v8"),
      import("node:vm"),
    ]);
    v8.setFlagsFromString("--expose-gc");
    const gc: unknown = vm.runInNewContext("gc");
    return typeof gc === "function" ? () => gc() : null;
  } catch {
    return null;
  }
}
