/**
 * Lets the runtime finish what a finished response left to do before the
 * next request goes out. A turn can go from the end of one reply to the next
 * request without the event loop handing control back to the runtime (a
 * quick tool such as `list_files` awaits nothing that waits), and then the
 * last response's connection is not yet back in `fetch`'s pool: the request
 * opens a new connection (3–8 ms on the turn's path; bench/NOTES.md).
 * Rounds of `setImmediate` (~5 µs each) give the runtime those turns: two
 * were enough after a streamed reply, three after one that came in a single
 * piece; four are taken. A message to itself, an asynchronous `stat` or a
 * timer (a millisecond or more) did not reliably do it.
 *
 * @example
 * ```ts
 * await nextTask(); // the last response's connection is free again
 * await fetch(url, init);
 * ```
 * @module
 */

/** Event-loop rounds before a request (see the module notes). */
const ROUNDS = 4;

/** Resolves after {@link ROUNDS} rounds of the event loop. */
export async function nextTask(): Promise<void> {
  for (let i = 0; i < ROUNDS; i++) await new Promise((resolve) => setImmediate(resolve));
}
