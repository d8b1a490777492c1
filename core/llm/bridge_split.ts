/**
 * Split sending: a bridge prompt longer than the chat accepts is cut into
 * parts at line boundaries, each with a `Part N/M` header saying more follows
 * (the last: process now). Headers count toward the limit.
 *
 * @example
 * ```ts
 * const parts = splitPrompt(longPrompt, 30_000);
 * parts[0].startsWith("Part 1/"); // true when it had to be split
 * ```
 * @module
 */

/** Characters one paste may hold unless configured otherwise. */
export const DEFAULT_BRIDGE_LIMIT = 30_000;
/** The smallest limit accepted (room for the headers and some text). */
export const MIN_BRIDGE_LIMIT = 1_000;
/** Room kept in each part for its header and footer. */
const RESERVED = 300;

/** The header of part `n` of `m`. */
export function partHeader(n: number, m: number): string {
  return n < m
    ? `Part ${n}/${m} of a message from minoc. More parts follow: do not act on it yet, ` +
      `answer only "ok".`
    : `Part ${n}/${m} of a message from minoc: this is the last part. ` +
      `Process the whole message (all ${m} parts) now.`;
}

function partFooter(n: number, m: number): string {
  return `[End of part ${n}/${m}. Answer only "ok" and wait for part ${n + 1}/${m}.]`;
}

/** `text` as it should be sent: whole when it fits `limit`, else in headed parts. */
export function splitPrompt(text: string, limit = DEFAULT_BRIDGE_LIMIT): string[] {
  const max = Math.max(limit, MIN_BRIDGE_LIMIT);
  if (text.length <= max) return [text];
  const bodies = cutLines(text, max - RESERVED);
  const m = bodies.length;
  return bodies.map((body, i) => {
    const n = i + 1;
    const head = `${partHeader(n, m)}\n\n`;
    const tail = n < m ? `\n\n${partFooter(n, m)}` : "";
    return head + body + tail;
  });
}

/** Pieces of at most `room` characters, cut after a line break where one fits. */
function cutLines(text: string, room: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    if (text.length - start <= room) {
      out.push(text.slice(start));
      break;
    }
    const window = text.slice(start, start + room);
    const nl = window.lastIndexOf("\n");
    let end = nl >= 0 ? start + nl + 1 : start + room;
    // Never cut a surrogate pair in two.
    if (nl < 0 && /[\uD800-\uDBFF]/.test(text[end - 1])) end--;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}
