/**
 * Token counts for what the server does not report: the conversation's size
 * for context management, and a reply's usage when the stream carried none.
 *
 * Counting is the cheap estimate of `core/llm/token_estimate.ts` (no tokenizer
 * table is loaded); the server's own usage figures win wherever a reply
 * carries them. Counts are cached per message object, so a growing
 * conversation is counted once per new message.
 *
 * @example
 * ```ts
 * const used = await countMessages(convo.messages);
 * const usage = await estimateUsage(convo.messages, replyText);
 * ```
 * @module
 */
import type { ChatMessage, Usage } from "../../interfaces/agent.ts";
import { estimateTokens } from "../llm/token_estimate.ts";

/** Tokens a chat format adds around every message (role markers). */
export const MESSAGE_OVERHEAD = 4;

const cache = new WeakMap<ChatMessage, number>();

/** Tokens in `text`. */
export function countText(text: string): Promise<number> {
  return Promise.resolve(estimateTokens(text));
}

/** Tokens of one message, its role overhead included (cached per object). */
export function countMessage(message: ChatMessage): Promise<number> {
  return Promise.resolve(messageTokens(message));
}

/**
 * Tokens of a whole conversation as it would be sent. Counted in one
 * synchronous pass (a long conversation has hundreds of messages, and an
 * `await` per message would cost more than the cached counts).
 */
export function countMessages(messages: readonly ChatMessage[]): Promise<number> {
  let total = 0;
  for (const m of messages) total += messageTokens(m);
  return Promise.resolve(total);
}

function messageTokens(message: ChatMessage): number {
  const known = cache.get(message);
  if (known !== undefined) return known;
  const n = estimateTokens(message.content) + MESSAGE_OVERHEAD;
  cache.set(message, n);
  return n;
}

/** Characters of a conversation: an upper bound of its tokens for any tokenizer we know. */
export function charCount(messages: readonly ChatMessage[]): number {
  let total = 0;
  for (const m of messages) total += m.content.length + MESSAGE_OVERHEAD;
  return total;
}

/**
 * Usage counted locally for a reply the server did not report on: the
 * request's messages in, the reply's text out. Marked `estimated`.
 */
export async function estimateUsage(
  messages: readonly ChatMessage[],
  replyText: string,
): Promise<Usage> {
  const promptTokens = await countMessages(messages);
  const completionTokens = await countText(replyText);
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    estimated: true,
  };
}
