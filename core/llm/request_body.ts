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
 * that shared start are serialized, and the rest is one copy. The bytes are
 * those of `JSON.stringify` of the same body, with `messages` as its first
 * field.
 *
 * @example
 * ```ts
 * const encoder = new BodyEncoder();
 * const { params, bytes } = encoder.body(options, messages, true);
 * client.chat.completions.create(params, { body: bytes, headers: JSON_HEADERS });
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
  /** The sent messages' JSON, joined by commas: message i's ends at `#sent[i].end`. */
  #joined = new Uint8Array(0);

  /** The body for `messages` (sampling parameters only when set, `top_k` as an extra field). */
  body(options: BodyOptions, messages: readonly ChatMessage[], includeUsage: boolean): RequestBody {
    const rest = restOf(options, includeUsage);
    const joinedLength = this.#follow(messages);
    // `rest` always has fields: its text is "{...}", and its "}" closes the whole body.
    const tail = encoder.encode(JSON.stringify(rest).slice(1));
    const bytes = new Uint8Array(OPEN.length + joinedLength + 2 + tail.length);
    bytes.set(OPEN, 0);
    let at = OPEN.length;
    bytes.set(this.#joined.subarray(0, joinedLength), at);
    at += joinedLength;
    bytes[at++] = CLOSE_LIST;
    bytes[at++] = COMMA;
    bytes.set(tail, at);
    const body = { messages, ...rest };
    return { params: body as unknown as ChatCompletionCreateParamsStreaming, bytes };
  }

  /** Brings the kept bytes to `messages`; returns their length. */
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
    let length = same === 0 ? 0 : sent[same - 1].end;
    for (let i = same; i < messages.length; i++) {
      const m = messages[i];
      const part = encoder.encode(JSON.stringify({ role: m.role, content: m.content }));
      length = this.#put(length, part, i > 0);
      sent.push({ message: m, role: m.role, content: m.content, end: length });
    }
    return length;
  }

  /** Writes `part` (after a comma) at `at` in the kept bytes, growing them by doubling; returns its end. */
  #put(at: number, part: Uint8Array, comma: boolean): number {
    const end = at + part.length + (comma ? 1 : 0);
    if (end > this.#joined.length) {
      const grown = new Uint8Array(Math.max(end, this.#joined.length * 2, 4096));
      grown.set(this.#joined.subarray(0, at));
      this.#joined = grown;
    }
    if (comma) this.#joined[at++] = COMMA;
    this.#joined.set(part, at);
    return end;
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
