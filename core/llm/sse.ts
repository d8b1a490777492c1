/**
 * Server-sent events from a byte stream, as the WHATWG rules read them: lines
 * end with LF, CRLF or a lone CR (also when a CR and its LF arrive in separate
 * chunks); a blank line ends an event; `:` starts a comment; `data` lines join
 * with LF; `event` names the event. Fields other than these two are ignored.
 *
 * The decoder is plain and synchronous: a chat reply's stream reads the body
 * and hands each read to {@link SseDecoder.push}, one `await` a network read,
 * with no iterator between the socket and the events. An event still open
 * when the stream ends is handed out by {@link SseDecoder.end} (servers that
 * leave out the last blank line lose nothing). Bounding an event's size is the
 * body's business (`bounded_body.ts`).
 *
 * @example
 * ```ts
 * const sse = new SseDecoder();
 * const events = sse.push(new TextEncoder().encode("data: {\"a\":1}\n\n"));
 * // events: [{ event: "message", data: "{\"a\":1}" }]
 * ```
 *
 * @module
 */

/** One event: its name (`message` unless the server named it) and its data lines joined. */
export interface ServerEvent {
  event: string;
  data: string;
}

const COLON = 58;
const SPACE = 32;

/** Splits a stream's bytes into {@link ServerEvent}s. */
export class SseDecoder {
  readonly #text = new TextDecoder();
  /** The current line so far (no line end in it). */
  #line = "";
  /** The last chunk ended with a CR: an LF opening the next one belongs to it. */
  #afterCR = false;
  /** The open event's data, undefined before its first `data` field. */
  #data: string | undefined;
  #event = "";

  /** The events completed by `bytes`, in order. */
  push(bytes: Uint8Array): ServerEvent[] {
    return this.#lines(this.#text.decode(bytes, { stream: true }));
  }

  /** At the stream's end: the events its last bytes complete, the open one included. */
  end(): ServerEvent[] {
    const out = this.#lines(this.#text.decode());
    if (this.#line !== "") this.#field(this.#line);
    this.#line = "";
    this.#dispatch(out);
    return out;
  }

  #lines(chunk: string): ServerEvent[] {
    const out: ServerEvent[] = [];
    if (chunk === "") return out;
    let start = 0;
    if (this.#afterCR && chunk.charCodeAt(0) === 10) start = 1;
    this.#afterCR = false;
    const cr = chunk.includes("\r", start);
    for (;;) {
      const lf = chunk.indexOf("\n", start);
      let end = lf;
      let next = lf + 1;
      if (cr) {
        const r = chunk.indexOf("\r", start);
        if (r >= 0 && (lf < 0 || r < lf)) {
          end = r;
          next = chunk.charCodeAt(r + 1) === 10 ? r + 2 : r + 1;
          if (r === chunk.length - 1) this.#afterCR = true;
        }
      }
      if (end < 0) break;
      const line = this.#line === ""
        ? chunk.slice(start, end)
        : this.#line + chunk.slice(start, end);
      this.#line = "";
      if (line === "") this.#dispatch(out);
      else this.#field(line);
      start = next;
    }
    if (start < chunk.length) this.#line += chunk.slice(start);
    return out;
  }

  #field(line: string): void {
    if (line.charCodeAt(0) === COLON) return; // a comment
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    if (name !== "data" && name !== "event") return;
    let value = "";
    if (colon >= 0) {
      value = line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    }
    if (name === "event") this.#event = value;
    else this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
  }

  #dispatch(out: ServerEvent[]): void {
    if (this.#data !== undefined) out.push({ event: this.#event || "message", data: this.#data });
    this.#data = undefined;
    this.#event = "";
  }
}
