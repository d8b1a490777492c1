/**
 * The model server's provider for a session: the configured client, wrapped
 * for debug mode (its log and wire tap) and for retries, whose waits are
 * told to the user as warnings and `retry_wait` events.
 *
 * @example
 * ```ts
 * const provider = serverProvider(settings, modes, { warn, emit });
 * ```
 * @module
 */
import type { AgentEvent, LlmProvider } from "../interfaces/agent.ts";
import type { Settings } from "../core/config/settings.ts";
import { createProvider } from "../core/llm/select.ts";
import { formatRetry, shortReason, withRetry } from "../core/llm/retry.ts";
import { capReplies } from "../core/llm/reply_cap.ts";
import type { SessionModes } from "./session_modes.ts";

/** Where retries are told. */
export interface RetryReport {
  warn(message: string): void;
  emit(event: AgentEvent): void;
}

/** Creates the provider that talks to the server `s` names. */
export function serverProvider(s: Settings, modes: SessionModes, o: RetryReport): LlmProvider {
  const inner = modes.provider(
    (wire) =>
      createProvider({
        baseURL: s.baseURL,
        apiKey: s.apiKey,
        params: s.params,
        timeoutMs: s.idleTimeoutMs,
        quirks: s.modelQuirks,
        wire,
      }),
    s,
  );
  return capReplies(withRetry(inner, s.retry, {
    onRetry: (info) => {
      o.warn(formatRetry(info));
      const { attempt, max, waitMs } = info;
      o.emit({ type: "retry_wait", attempt, max, waitMs, reason: shortReason(info.error) });
    },
  }));
}
