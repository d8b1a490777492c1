/**
 * Token counts for what the server does not report: the conversation's size
 * for context management, and a reply's usage when the stream carried none.
 *
 * Counting is the cheap estimate of `core/llm/token_estimate.ts` (no tokenizer
 * table is loaded); the server's own usage figures win wherever a reply
 * carries them. Counts are cached per message object, and a conversation's
 * totals per list: a list that only grew since it was last counted is
 * counted from its first new or replaced message on.
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
  return Promise.resolve(tokenTotals.of(messages));
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
  return charTotals.of(messages);
}

/**
 * A measure summed over whole lists, remembered per list: the messages a
 * list held when last summed are compared by identity (which reads only the
 * list itself), the running sums up to the first difference are kept, and
 * only the rest is measured.
 */
class RunningTotals {
  readonly #lists = new WeakMap<readonly ChatMessage[], { seen: ChatMessage[]; sums: number[] }>();

  constructor(private readonly measure: (m: ChatMessage) => number) {}

  of(messages: readonly ChatMessage[]): number {
    let r = this.#lists.get(messages);
    if (r === undefined) this.#lists.set(messages, r = { seen: [], sums: [] });
    const same = Math.min(r.seen.length, messages.length);
    let i = 0;
    while (i < same && r.seen[i] === messages[i]) i++;
    r.seen.length = r.sums.length = i;
    let total = i === 0 ? 0 : r.sums[i - 1];
    for (; i < messages.length; i++) {
      total += this.measure(messages[i]);
      r.seen.push(messages[i]);
      r.sums.push(total);
    }
    return total;
  }
}

const tokenTotals = new RunningTotals(messageTokens);
const charTotals = new RunningTotals((m) => m.content.length + MESSAGE_OVERHEAD);

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
