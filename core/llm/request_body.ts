/**
 * The body of a chat completion request, as an object (what the `openai`
 * client reads to know that the reply streams) and as the UTF-8 bytes of its
 * JSON, which are sent.
 *
 * The bytes are built here rather than by the client: the client serializes a
 * chat request with a replacer function (to watch the `stream` field), which
 * takes V8 off its fast path, and it would serialize the whole conversation
 * again on every turn, after which `fetch` encodes that text again. Here each
 * message is serialized and encoded once and its bytes kept beside the message
 * object (in a `WeakMap`, checked against the message's current role and
 * content), so a turn encodes only its new messages and copies the rest into
 * one buffer. The bytes are those of `JSON.stringify` of the same body, with
 * `messages` as its first field.
 *
 * @example
 * ```ts
 * const { params, bytes } = requestBody(options, messages, true);
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

/** Sampling parameters only when set, `top_k` as an extra field. */
export function requestBody(
  options: BodyOptions,
  messages: readonly ChatMessage[],
  includeUsage: boolean,
): RequestBody {
  const params = options.params;
  const rest: Record<string, unknown> = { model: params.model, stream: true };
  if (includeUsage) rest.stream_options = { include_usage: true };
  if (params.temperature !== undefined) rest.temperature = params.temperature;
  if (params.topP !== undefined) rest.top_p = params.topP;
  if (params.topK !== undefined) rest.top_k = params.topK;
  if (params.maxTokens !== undefined) {
    rest[options.maxTokensField ?? "max_tokens"] = params.maxTokens;
  }
  const parts: Uint8Array[] = [];
  let size = OPEN.length + 2;
  for (const m of messages) {
    const part = messageBytes(m);
    parts.push(part);
    size += part.length + 1;
  }
  // `rest` always has fields: its text is "{...}", and "}" closes the whole body.
  const tail = encoder.encode(JSON.stringify(rest).slice(1));
  const bytes = new Uint8Array(size + tail.length);
  bytes.set(OPEN, 0);
  let at = OPEN.length;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) bytes[at++] = COMMA;
    bytes.set(parts[i], at);
    at += parts[i].length;
  }
  bytes[at++] = CLOSE_LIST;
  bytes[at++] = COMMA;
  bytes.set(tail, at);
  at += tail.length;
  const body = { messages, ...rest };
  return {
    params: body as unknown as ChatCompletionCreateParamsStreaming,
    bytes: bytes.subarray(0, at),
  };
}

const encoder = new TextEncoder();
const OPEN = encoder.encode('{"messages":[');
const COMMA = 0x2c;
const CLOSE_LIST = 0x5d;

interface Serialized {
  role: string;
  content: string;
  bytes: Uint8Array;
}

const serialized = new WeakMap<ChatMessage, Serialized>();

/** The UTF-8 bytes of `JSON.stringify(message)`, kept for the message object while its role and content stay. */
export function messageBytes(message: ChatMessage): Uint8Array {
  const known = serialized.get(message);
  if (known !== undefined && known.content === message.content && known.role === message.role) {
    return known.bytes;
  }
  const json = JSON.stringify({ role: message.role, content: message.content });
  const bytes = encoder.encode(json);
  serialized.set(message, { role: message.role, content: message.content, bytes });
  return bytes;
}
