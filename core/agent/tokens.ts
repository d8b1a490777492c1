/**
 * Token counts for what the server does not report: the conversation's size
 * for context management, and a reply's usage when the stream carried none.
 *
 * Counting uses gpt-tokenizer (cl100k_base), imported on first use so runs
 * that never count stay fast. Counts are cached per message object, so a
 * growing conversation is counted once per new message.
 *
 * @example
 * ```ts
 * const used = await countMessages(convo.messages);
 * const usage = await estimateUsage(convo.messages, replyText);
 * ```
 * @module
 */
import type { ChatMessage, Usage } from "../../interfaces/agent.ts";

/** Tokens a chat format adds around every message (role markers). */
export const MESSAGE_OVERHEAD = 4;

type Counter = (text: string) => number;
let counter: Promise<Counter> | null = null;
const cache = new WeakMap<ChatMessage, number>();

/** The tokenizer, loaded once. */
function loadCounter(): Promise<Counter> {
  counter ??= import("gpt-tokenizer/encoding/cl100k_base").then((m) => {
    // Text that merely mentions a special token such as <|endoftext|> is plain text here.
    const options = { disallowedSpecial: new Set<string>() };
    return (text: string) => m.countTokens(text, options);
  });
  return counter;
}

/** Tokens in `text`. */
export async function countText(text: string): Promise<number> {
  if (text === "") return 0;
  return (await loadCounter())(text);
}

/** Tokens of one message, its role overhead included (cached per object). */
export async function countMessage(message: ChatMessage): Promise<number> {
  const known = cache.get(message);
  if (known !== undefined) return known;
  const n = (await countText(message.content)) + MESSAGE_OVERHEAD;
  cache.set(message, n);
  return n;
}

/** Tokens of a whole conversation as it would be sent. */
export async function countMessages(messages: readonly ChatMessage[]): Promise<number> {
  let total = 0;
  for (const m of messages) total += await countMessage(m);
  return total;
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
