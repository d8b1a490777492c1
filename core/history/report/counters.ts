/**
 * Bounded-memory counters for the report: a log-scale histogram that gives
 * percentiles within 2.5 % of any number of samples, and a top-N counter
 * that forgets rare keys when it grows too large.
 *
 * @example
 * ```ts
 * const h = new LogHistogram();
 * for (const ms of times) h.add(ms);
 * h.quantile(0.95);
 * ```
 * @module
 */

const RATIO = Math.log(1.05);

/** Samples by logarithmic bucket (5 % wide); memory grows with the range, not the count. */
export class LogHistogram {
  readonly #buckets = new Map<number, number>();
  #count = 0;
  #zeros = 0;

  /** Adds a sample; negative and non-finite ones are ignored. */
  add(value: number): void {
    if (!Number.isFinite(value) || value < 0) return;
    this.#count++;
    if (value < 1e-3) {
      this.#zeros++;
      return;
    }
    const b = Math.floor(Math.log(value) / RATIO);
    this.#buckets.set(b, (this.#buckets.get(b) ?? 0) + 1);
  }

  /** How many samples were added. */
  get count(): number {
    return this.#count;
  }

  /** The `q` quantile (0..1), null when empty; a bucket's middle stands for its samples. */
  quantile(q: number): number | null {
    if (this.#count === 0) return null;
    let rank = Math.max(1, Math.ceil(q * this.#count)) - this.#zeros;
    if (rank <= 0) return 0;
    for (const b of [...this.#buckets.keys()].sort((x, y) => x - y)) {
      rank -= this.#buckets.get(b) ?? 0;
      if (rank <= 0) return Math.exp((b + 0.5) * RATIO);
    }
    return null;
  }
}

/** Counts by key, keeping at most `limit` keys: past it, the rarest half is forgotten. */
export class TopCounter<T extends Record<string, number>> {
  readonly #rows = new Map<string, T>();

  constructor(readonly limit: number, readonly empty: () => T) {}

  /** Adds `n` to field `field` of `key`. */
  add(key: string, field: keyof T, n = 1): void {
    let row = this.#rows.get(key);
    if (row === undefined) {
      if (this.#rows.size >= this.limit) this.#prune();
      row = this.empty();
      this.#rows.set(key, row);
    }
    (row[field] as number) += n;
  }

  /** The `n` keys with the largest totals, largest first (ties by key). */
  top(n: number): { key: string; row: T }[] {
    return [...this.#rows].map(([key, row]) => ({ key, row, total: total(row) }))
      .sort((a, b) => b.total - a.total || a.key.localeCompare(b.key))
      .slice(0, n).map(({ key, row }) => ({ key, row }));
  }

  #prune(): void {
    const sorted = [...this.#rows].sort((a, b) => total(a[1]) - total(b[1]));
    for (const [key] of sorted.slice(0, Math.ceil(sorted.length / 2))) this.#rows.delete(key);
  }
}

function total(row: Record<string, number>): number {
  let sum = 0;
  for (const v of Object.values(row)) sum += v;
  return sum;
}
