/**
 * The body of a chat completion request, as an object (what the `openai`
 * client reads to know that the reply streams) and as the JSON text that is
 * sent.
 *
 * The text is built here rather than by the client: the client serializes a
 * chat request with a replacer function (to watch the `stream` field), which
 * takes V8 off its fast path, and it would serialize the whole conversation
 * again on every turn. Here each message is serialized once and its JSON kept
 * beside the message object (in a `WeakMap`, checked against the message's
 * current role and content), so a turn serializes only its new messages and
 * joins the rest. The text is exactly `JSON.stringify` of the same body, with
 * `messages` as its first field.
 *
 * @example
 * ```ts
 * const { params, json } = requestBody(options, messages, true);
 * client.chat.completions.create(params, { body: json, headers: JSON_HEADERS });
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
  /** The same body as JSON text, sent as it is. */
  json: string;
}

/** The header that makes the client send a text body unchanged. */
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
  const parts: string[] = [];
  for (const m of messages) parts.push(messageJson(m));
  // `rest` always has fields, so its text is "{...}" with something inside.
  const json = `{"messages":[${parts.join(",")}],${JSON.stringify(rest).slice(1)}`;
  const body = { messages, ...rest };
  return { params: body as unknown as ChatCompletionCreateParamsStreaming, json };
}

interface Serialized {
  role: string;
  content: string;
  json: string;
}

const serialized = new WeakMap<ChatMessage, Serialized>();

/** `JSON.stringify(message)`, kept for the message object while its role and content stay. */
export function messageJson(message: ChatMessage): string {
  const known = serialized.get(message);
  if (known !== undefined && known.content === message.content && known.role === message.role) {
    return known.json;
  }
  const json = JSON.stringify({ role: message.role, content: message.content });
  serialized.set(message, { role: message.role, content: message.content, json });
  return json;
}
