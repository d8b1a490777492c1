/**
 * The one way to wrap a provider: everything but `stream` is forwarded, so
 * decorators (retries, debug logging) cannot drift apart or drop a field.
 *
 * @example
 * ```ts
 * const logged = decorateProvider(provider, (request) => logStream(provider, request));
 * ```
 * @module
 */
import type { ChatRequest, LlmProvider, StreamEvent } from "../../interfaces/agent.ts";

/** A provider that streams through `stream` and otherwise is `inner`. */
export function decorateProvider(
  inner: LlmProvider,
  stream: (request: ChatRequest) => AsyncIterable<StreamEvent>,
): LlmProvider {
  return {
    get name() {
      return inner.name;
    },
    get model() {
      return inner.model;
    },
    get endpoint() {
      return inner.endpoint;
    },
    get waitsForUser() {
      return inner.waitsForUser;
    },
    stream,
  };
}
