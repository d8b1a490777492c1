/**
 * A chat answer's body, bounded before the `openai` client buffers it. The
 * client keeps an event's bytes until the event ends (a blank line), and an
 * error's whole body; a server that streams one line, or one event, without
 * end would fill memory long before the idle timeout (which only news from
 * the model keeps off) or the reply cap (which counts events) could act: 3.5
 * GB in 20 s on loopback. So an event may hold at most
 * {@link MAX_EVENT_BYTES} (far more than one chunk of a reply minoc keeps:
 * a whole 1,000,000-character reply in one chunk is at most 6 MB of JSON),
 * and an answer that is not an event stream at most {@link MAX_OTHER_BYTES};
 * past that the body fails with {@link ServerFloodError}.
 *
 * @example
 * ```ts
 * const f = boundedFetch(fetch);
 * const response = await f(url, init); // its body errors past the limits
 * ```
 * @module
 */

/** The most one server-sent event may hold, in bytes. */
export const MAX_EVENT_BYTES = 8 << 20;
/** The most an answer that is not an event stream may hold (an error's JSON), in bytes. */
export const MAX_OTHER_BYTES = 8 << 20;

const LF = 10;
const CR = 13;

/** A server sent more than a chat answer holds without ending it. */
export class ServerFloodError extends Error {
  constructor(what: string, maxBytes: number) {
    super(
      `The server sent ${what} larger than ${maxBytes >> 20} MB; the answer was not read further`,
    );
    this.name = "ServerFloodError";
  }
}

/** The bounds, in bytes; `streams`: give a stream's body as a real stream (for clients that pipe it). */
export interface BodyLimits {
  event: number;
  other: number;
  streams?: boolean;
}

/** `inner`, with every answer's body bounded (see the module notes). */
export function boundedFetch(inner: typeof fetch, limits: BodyLimits = LIMITS): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit) =>
    boundedResponse(await inner(input, init), limits);
}

const LIMITS: BodyLimits = { event: MAX_EVENT_BYTES, other: MAX_OTHER_BYTES };

/** `response` with its body bounded: per event for an event stream, in all otherwise. */
export function boundedResponse(response: Response, limits: BodyLimits = LIMITS): Response {
  const inner = response.body;
  if (inner === null) return response;
  const sse = /text\/event-stream/i.test(response.headers.get("content-type") ?? "");
  if (sse && !limits.streams) {
    // The reply's way: the client takes a reader of the body; each of its reads is checked, with
    // no second stream (and its hops) between the socket and the client.
    const body = checkedBody(inner, eventLimit(limits.event));
    Object.defineProperty(response, "body", { value: body });
    return response;
  }
  const reader = inner.getReader();
  const check = sse ? eventLimit(limits.event) : totalLimit(limits.other);
  const out = new Response(
    new ReadableStream<Uint8Array>({
      async pull(c) {
        const { done, value } = await reader.read();
        if (done) return c.close();
        const flood = check(value);
        if (flood === null) return c.enqueue(value);
        c.error(flood);
        await reader.cancel().catch(() => {});
      },
      cancel: (reason) => reader.cancel(reason),
    }),
    { status: response.status, statusText: response.statusText, headers: response.headers },
  );
  Object.defineProperty(out, "url", { value: response.url });
  return out;
}

/** `inner` as a body whose reader checks every chunk it reads (what the `openai` client uses). */
function checkedBody(inner: ReadableStream<Uint8Array>, check: Check): ReadableStream<Uint8Array> {
  const body = {
    get locked() {
      return inner.locked;
    },
    cancel: (reason?: unknown) => inner.cancel(reason),
    getReader() {
      const reader = inner.getReader();
      return {
        closed: reader.closed,
        async read() {
          const r = await reader.read();
          const flood = r.done ? null : check(r.value);
          if (flood === null) return r;
          await reader.cancel().catch(() => {});
          throw flood;
        },
        cancel: (reason?: unknown) => reader.cancel(reason),
        releaseLock: () => reader.releaseLock(),
      };
    },
  };
  return body as unknown as ReadableStream<Uint8Array>;
}

/** A check of each chunk: null while within bounds, else the error. */
type Check = (chunk: Uint8Array) => ServerFloodError | null;

function totalLimit(max: number): Check {
  let total = 0;
  return (chunk) => (total += chunk.length) > max ? new ServerFloodError("an answer", max) : null;
}

/**
 * Counts the bytes since the last blank line (the end of an event). Lines end
 * as the event-stream format allows: CRLF, LF or a lone CR (a CR and its LF
 * may come in two reads).
 */
function eventLimit(max: number): Check {
  let pending = 0; // bytes of the event so far
  let line = 0; // bytes of the current line so far
  let afterCr = false; // the last byte read ended a line with CR: an LF next belongs to it
  return (chunk) => {
    let start = 0;
    let lf = chunk.indexOf(LF);
    let cr = chunk.indexOf(CR);
    while (lf >= 0 || cr >= 0) {
      const atLf = cr < 0 || (lf >= 0 && lf < cr);
      const t = atLf ? lf : cr;
      if (!(atLf && afterCr && t === start)) {
        const n = line + t - start;
        pending = n === 0 ? 0 : pending + t + 1 - start;
        line = 0;
      }
      afterCr = !atLf;
      start = t + 1;
      if (atLf) lf = chunk.indexOf(LF, start);
      else cr = chunk.indexOf(CR, start);
    }
    const rest = chunk.length - start;
    if (rest > 0) {
      afterCr = false;
      line += rest;
      pending += rest;
    }
    return pending > max ? new ServerFloodError("one event", max) : null;
  };
}
