/**
 * What goes over the wire to the model server, exactly: a `fetch` for the
 * `openai` client that reports each request (method, URL, headers with the
 * key redacted, the body as sent) and each response's status and headers.
 * Debug mode listens through a {@link WireTap}, so debug.log shows the real
 * bytes (`stream_options`, `max_completion_tokens`, the client's own headers)
 * rather than a rebuilt body.
 *
 * @example
 * ```ts
 * const tap = createWireTap();
 * const provider = createProvider({ ...config, wire: tap.sink });
 * tap.listen((e) => console.log(e.type, e.type === "request" ? e.body : e.status));
 * ```
 * @module
 */
import { REDACTED } from "../history/redact.ts";

/** One half of an HTTP exchange with the model server. */
export type WireEvent =
  | {
    type: "request";
    method: string;
    url: string;
    headers: Record<string, string>;
    /** The body as sent (JSON text for chat requests). */
    body: string;
  }
  | { type: "response"; status: number; headers: Record<string, string>; ms: number };

/** Receives wire events. */
export type WireSink = (event: WireEvent) => void;

/** Header names whose values are never shown. */
const SECRET = /^(authorization|proxy-authorization|api-key|x-api-key)$/i;

/** A `fetch` that tells `sink` about every request and response it carries. */
export function tappedFetch(sink: WireSink, inner: typeof fetch = fetch): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit) => {
    const started = performance.now();
    const url = input instanceof Request ? input.url : String(input);
    const headers = shownHeaders(new Headers(init?.headers ?? (input as Request).headers));
    const body = init?.body;
    sink({
      type: "request",
      method: init?.method ?? (input instanceof Request ? input.method : "GET"),
      url,
      headers,
      body: typeof body === "string"
        ? body
        : body instanceof Uint8Array
        ? new TextDecoder().decode(body)
        : body == null
        ? ""
        : "(a body that is not text)",
    });
    const response = await inner(input, init);
    sink({
      type: "response",
      status: response.status,
      headers: shownHeaders(response.headers),
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
    return response;
  };
}

function shownHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    out[name] = SECRET.test(name)
      ? (/^Bearer /i.test(value) ? `Bearer ${REDACTED}` : REDACTED)
      : value;
  }
  return out;
}

/** A sink to give the provider, and one listener at a time behind it. */
export interface WireTap {
  readonly sink: WireSink;
  /** Sends the events to `listener` from now on (null: nowhere). */
  listen(listener: WireSink | null): void;
}

/** Creates a tap with no listener. */
export function createWireTap(): WireTap {
  let listener: WireSink | null = null;
  return {
    sink: (event) => listener?.(event),
    listen(next) {
      listener = next;
    },
  };
}
