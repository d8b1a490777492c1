/**
 * A cap on what one reply may hold: past {@link MAX_REPLY_CHARS} the stream
 * is stopped (the request aborted) and the reply ends with
 * {@link cutNotice}, which the user sees and the model reads back in its own
 * message. Far above what a model writes in one turn, far below what fills
 * memory: a 50 MB reply cost 1 GB and a 149 MB session file before. Reasoning
 * the server sends apart (`reasoning_content`) counts too: a server streaming
 * it without end would otherwise fill memory as surely.
 *
 * @example
 * ```ts
 * const provider = capReplies(withRetry(inner, policy));
 * ```
 * @module
 */
import type { ChatRequest, LlmProvider, StreamEvent } from "../../interfaces/agent.ts";
import { decorateProvider } from "./decorate.ts";

/** Characters of one reply that are kept, recorded and sent back to the model. */
export const MAX_REPLY_CHARS = 1_000_000;

/** The text that ends a reply cut at `max` characters. */
export function cutNotice(max = MAX_REPLY_CHARS): string {
  return `\n[minoc: this reply was cut at ${max} characters and the rest was not read; ` +
    "write less per reply: split large files into several edits]\n";
}

/** Wraps `provider` so no reply is longer than `max` characters (plus the notice). */
export function capReplies(provider: LlmProvider, max = MAX_REPLY_CHARS): LlmProvider {
  return decorateProvider(provider, (request) => capped(provider, request, max));
}

async function* capped(
  provider: LlmProvider,
  request: ChatRequest,
  max: number,
): AsyncGenerator<StreamEvent> {
  const stop = new AbortController();
  const signal = request.signal ? AbortSignal.any([request.signal, stop.signal]) : stop.signal;
  let kept = 0;
  for await (const event of provider.stream({ ...request, signal })) {
    if (event.type !== "text" && event.type !== "reasoning") {
      yield event;
      continue;
    }
    const piece = event.text.slice(0, max - kept);
    kept += piece.length;
    if (piece !== "") yield { ...event, text: piece };
    if (piece.length < event.text.length) {
      stop.abort();
      yield { type: "text", text: cutNotice(max) };
      yield { type: "end", reason: "length" };
      return;
    }
  }
}
