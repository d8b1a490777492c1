/**
 * The body of a chat completion request, as an object (what the `openai`
 * client reads to know that the reply streams) and as the UTF-8 bytes of its
 * JSON, which are sent.
 *
 * The bytes are built here rather than by the client: the client serializes a
 * chat request with a replacer function (to watch the `stream` field), which
 * takes V8 off its fast path, and it would serialize the whole conversation
 * again on every turn, after which `fetch` encodes that text again. A
 * {@link BodyEncoder} keeps the conversation it sent last as the bytes of its
 * messages' JSON; the next request's conversation usually starts with the same
 * message objects (with the same role and content), so only the messages after
 * that shared start are serialized, into the same buffer, after the bytes kept.
 * The bytes are those of `JSON.stringify` of the same body, with `messages` as
 * its first field, and stay as they are until the encoder is told they were
 * sent (`release()`).
 *
 * @example
 * ```ts
 * const encoder = new BodyEncoder();
 * const { params, bytes } = encoder.body(options, messages, true);
 * try {
 *   await client.chat.completions.create(params, { body: bytes, headers: JSON_HEADERS });
 * } finally {
 *   encoder.release();
 * }
 * ```
 * @module
 */
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import type { ChatMessage, ModelParams } from "../../interfaces/agent.ts";

/** What the body is built from (a part of the provider's options). */
export interface BodyOptions {
  params: ModelParams;
  /** The body field for `maxTokens` (default `max_tokens`). */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
}

/** A request body both ways. */
export interface RequestBody {
  /** The body as an object; the client reads its `stream` field. */
  params: ChatCompletionCreateParamsStreaming;
  /** The same body as the UTF-8 bytes of its JSON, sent as they are. */
  bytes: Uint8Array<ArrayBuffer>;
}

/** The header that goes with the bytes (the client sends a byte body unchanged). */
export const JSON_HEADERS = { "content-type": "application/json" } as const;

const encoder = new TextEncoder();
const OPEN = encoder.encode('{"messages":[');
const COMMA = 0x2c;
const CLOSE_LIST = 0x5d;

/** A message of the last body: the object, its role and content then, and where its JSON ends. */
interface Sent {
  message: ChatMessage;
  role: string;
  content: string;
  end: number;
}

/** Builds request bodies for one conversation after another, reusing what the last one sent. */
export class BodyEncoder {
  #sent: Sent[] = [];
  /**
   * The last body's bytes: `{"messages":[`, the sent messages' JSON joined by commas (message
   * i's ends at `#sent[i].end`), then the rest of the body. One buffer serves every request:
   * `fetch` copies a byte body when it is called, so the next body may overwrite this one, and
   * a long session does not leave a dead conversation-sized buffer behind on every turn.
   */
  #buf = new Uint8Array(4096);
  /** A body from the buffer has not been released yet: it may not have reached `fetch`. */
  #lent = false;

  /**
   * The body for `messages` (sampling parameters only when set, `top_k` as an extra field).
   * Call {@link release} once `fetch` has it (when the request has settled). A body asked for
   * before that is built apart, so the one not yet sent stays intact.
   */
  body(options: BodyOptions, messages: readonly ChatMessage[], includeUsage: boolean): RequestBody {
    if (this.#lent) return new BodyEncoder().body(options, messages, includeUsage);
    this.#lent = true;
    const rest = restOf(options, includeUsage);
    this.#buf.set(OPEN, 0);
    let at = this.#follow(messages);
    // `rest` always has fields: its text is "{...}", and its "}" closes the whole body.
    const tail = encoder.encode(JSON.stringify(rest).slice(1));
    this.#room(at, 2 + tail.length);
    this.#buf[at++] = CLOSE_LIST;
    this.#buf[at++] = COMMA;
    this.#buf.set(tail, at);
    const body = { messages, ...rest };
    const bytes = this.#buf.subarray(0, at + tail.length);
    return { params: body as unknown as ChatCompletionCreateParamsStreaming, bytes };
  }

  /** Says that the last body's bytes have been sent (or never will be): the buffer is free. */
  release(): void {
    this.#lent = false;
  }

  /** Brings the kept messages' bytes to `messages`; returns where they end. */
  #follow(messages: readonly ChatMessage[]): number {
    const sent = this.#sent;
    let same = 0;
    while (same < Math.min(messages.length, sent.length)) {
      const m = messages[same];
      const s = sent[same];
      if (m !== s.message || m.content !== s.content || m.role !== s.role) break;
      same++;
    }
    sent.length = same;
    let at = same === 0 ? OPEN.length : sent[same - 1].end;
    for (let i = same; i < messages.length; i++) {
      const m = messages[i];
      const part = encoder.encode(JSON.stringify({ role: m.role, content: m.content }));
      this.#room(at, part.length + 1);
      if (i > 0) this.#buf[at++] = COMMA;
      this.#buf.set(part, at);
      at += part.length;
      sent.push({ message: m, role: m.role, content: m.content, end: at });
    }
    return at;
  }

  /** Makes room for `more` bytes after the first `at`, which it keeps, growing by doubling. */
  #room(at: number, more: number): void {
    if (at + more <= this.#buf.length) return;
    const grown = new Uint8Array(Math.max(at + more, this.#buf.length * 2));
    grown.set(this.#buf.subarray(0, at));
    this.#buf = grown;
  }
}

/** The body's fields besides the messages. */
function restOf(options: BodyOptions, includeUsage: boolean): Record<string, unknown> {
  const params = options.params;
  const rest: Record<string, unknown> = { model: params.model, stream: true };
  if (includeUsage) rest.stream_options = { include_usage: true };
  if (params.temperature !== undefined) rest.temperature = params.temperature;
  if (params.topP !== undefined) rest.top_p = params.topP;
  if (params.topK !== undefined) rest.top_k = params.topK;
  if (params.maxTokens !== undefined) {
    rest[options.maxTokensField ?? "max_tokens"] = params.maxTokens;
  }
  return rest;
}
