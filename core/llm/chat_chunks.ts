/**
 * A streamed chat completion's chunks, read from the response the `openai`
 * client returns (`.asResponse()`): each network read of the body becomes the
 * chunks it completes, through {@link SseDecoder}, with one `await` a read.
 * The client's own stream wraps the body in several async iterators, each a
 * hop per event; this reader is what minoc needs of it and no more.
 *
 * What the client's stream did and this keeps: `[DONE]` ends the reply (the
 * rest of the body is not read); an `error` event, or a payload with an
 * `error` field, is the client's `APIError` (so `errors.ts` classifies it as
 * before); data that is not JSON is an error naming what came. A payload that
 * is JSON but not an object (`null`, a number) carries no chunk and is skipped.
 *
 * @example
 * ```ts
 * const chunks = new ChatChunks(await client.chat.completions.create(params).asResponse());
 * try {
 *   for (let batch; (batch = await chunks.next()) !== null;) {
 *     for (const chunk of batch) console.log(chunk.choices[0]?.delta?.content);
 *   }
 * } finally {
 *   chunks.close();
 * }
 * ```
 *
 * @module
 */
import { APIError } from "openai/core/error";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { type ServerEvent, SseDecoder } from "./sse.ts";

/** Longest part of an undecodable event quoted in its error. */
const QUOTE = 80;

/** Reads a streamed chat completion's chunks from its response. */
export class ChatChunks {
  readonly #headers: Headers;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  readonly #sse = new SseDecoder();
  #ended = false;
  /** The body was read to its end (nothing to cancel). */
  #drained = false;
  /** An error met after chunks of the same read: thrown by the next call, once they are out. */
  #failure: { error: unknown } | undefined;

  constructor(response: Response) {
    this.#headers = response.headers;
    this.#reader = response.body?.getReader();
    if (this.#reader === undefined) this.#drained = true;
  }

  /** The chunks of the next read (possibly none), or null once the reply has ended. */
  async next(): Promise<ChatCompletionChunk[] | null> {
    const failure = this.#failure;
    if (failure !== undefined) {
      this.#failure = undefined;
      this.#ended = true;
      throw failure.error;
    }
    if (this.#ended || this.#reader === undefined) return null;
    const read = await this.#reader.read();
    if (read.done) this.#drained = this.#ended = true;
    const events = read.done ? this.#sse.end() : this.#sse.push(read.value);
    const chunks: ChatCompletionChunk[] = [];
    for (const event of events) {
      if (event.data === "[DONE]") {
        this.#ended = true;
        break;
      }
      let chunk: ChatCompletionChunk | null;
      try {
        chunk = this.#chunk(event);
      } catch (error) {
        if (chunks.length === 0) throw error;
        // What the model sent before the error is shown first (a reply that showed text is
        // not retried); the error comes with the next call.
        this.#failure = { error };
        break;
      }
      if (chunk !== null) chunks.push(chunk);
    }
    if (this.#ended && chunks.length === 0) return null;
    return chunks;
  }

  /** Stops reading: the rest of the body, if any, is cancelled. Never throws. */
  close(): void {
    this.#ended = true;
    if (this.#drained) return;
    this.#drained = true;
    this.#reader?.cancel().catch(() => {});
  }

  #chunk(event: ServerEvent): ChatCompletionChunk | null {
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      const quote = event.data.length > QUOTE ? `${event.data.slice(0, QUOTE)}…` : event.data;
      throw new SyntaxError(`The server sent an event that is not JSON: ${JSON.stringify(quote)}`);
    }
    const error = (data as { error?: unknown } | null)?.error;
    if (event.event === "error" || error) {
      throw new APIError(undefined, (error ?? data) as object, undefined, this.#headers);
    }
    return data === null || typeof data !== "object" ? null : data as ChatCompletionChunk;
  }
}
