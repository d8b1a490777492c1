/**
 * A decorator that retries failed replies of any {@link LlmProvider}.
 *
 * Retried: network errors, timeouts, 408, 429, 5xx, and a stream that broke
 * before any text was shown. Never retried: auth, bad requests, unknown models
 * (400, 401, 403, 404, 422): those end the stream as they came. A stream that
 * broke after text was shown is not retried either: its final `end` event
 * carries the error with `afterText: true`, so the user can retry the turn.
 *
 * Waits grow as `baseDelayMs · 2^n` (1, 2, 4, 8 … s by default) up to
 * `maxDelayMs`; a server's `Retry-After` wins, up to `maxRetryAfterMs`. There
 * is no jitter, so waits are predictable. Every retry is logged under the
 * LogTape category `["minoc", "retry"]` (`retry.log`).
 *
 * @example
 * ```ts
 * const provider = withRetry(createProvider(config), DEFAULT_RETRY_POLICY, {
 *   onRetry: (info) => console.error(formatRetry(info)),
 * });
 * ```
 *
 * @module
 */
import { getLogger } from "@logtape/logtape";
import type {
  ChatRequest,
  LlmProvider,
  ProviderError,
  StreamEvent,
} from "../../interfaces/agent.ts";
import { isRetryable } from "./errors.ts";
import { decorateProvider } from "./decorate.ts";

/** How often and how long to retry. */
export interface RetryPolicy {
  /** Retries after the first attempt (0 turns retrying off). */
  maxRetries: number;
  /** The first wait; each next one doubles. */
  baseDelayMs: number;
  /** The longest computed wait. */
  maxDelayMs: number;
  /** The longest wait a server's `Retry-After` can ask for. */
  maxRetryAfterMs: number;
}

/** 3 retries after 1, 2 and 4 s; at most 30 s computed, 60 s asked by the server. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 3,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
});

/** What the user interface learns before each wait. */
export interface RetryInfo {
  /** Which retry this is, from 1. */
  attempt: number;
  /** The policy's `maxRetries`. */
  max: number;
  waitMs: number;
  error: ProviderError;
}

/** Hooks of {@link withRetry}. */
export interface RetryHooks {
  /** Waits `ms`, or less when `signal` aborts (default: a real timer). */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
  /** Called before each wait, e.g. to print {@link formatRetry}. */
  onRetry?(info: RetryInfo): void;
}

const log = getLogger(["minoc", "retry"]);

/** Wraps `provider` so retryable failures are tried again according to `policy`. */
export function withRetry(
  provider: LlmProvider,
  policy: RetryPolicy,
  hooks: RetryHooks = {},
): LlmProvider {
  return decorateProvider(provider, (request) => retrying(provider, policy, hooks, request));
}

async function* retrying(
  provider: LlmProvider,
  policy: RetryPolicy,
  hooks: RetryHooks,
  request: ChatRequest,
): AsyncGenerator<StreamEvent> {
  const sleep = hooks.sleep ?? sleepFor;
  for (let retry = 0;; retry++) {
    let shown = false;
    let end: EndEvent = { type: "end", reason: "stop" };
    for await (const event of provider.stream(request)) {
      if (event.type === "end") {
        end = event;
        break;
      }
      if (event.type === "text") shown = true;
      yield event;
    }
    const error = end.error;
    // The final end says how many retries came before it (recorded with the reply).
    const counted = (e: EndEvent): EndEvent => retry > 0 ? { ...e, retries: retry } : e;
    if (end.reason !== "error" || !error) return yield counted(end);
    if (shown || error.afterText) {
      return yield counted({ ...end, error: { ...error, afterText: true } });
    }
    if (!isRetryable(error) || request.signal?.aborted) return yield counted(end);
    if (retry >= policy.maxRetries) return yield counted(gaveUp(end, error, provider, policy));
    const info: RetryInfo = {
      attempt: retry + 1,
      max: policy.maxRetries,
      waitMs: retryDelay(policy, retry, error),
      error,
    };
    logRetry(provider, info);
    hooks.onRetry?.(info);
    try {
      await sleep(info.waitMs, request.signal);
    } catch {
      // a sleep that rejects on abort: the check below ends the stream
    }
    if (request.signal?.aborted) return yield { type: "end", reason: "aborted" };
  }
}

/**
 * The wait before retry number `retry + 1`: the server's `retryAfterMs` capped
 * at `maxRetryAfterMs`, else `baseDelayMs · 2^retry` capped at `maxDelayMs`.
 */
export function retryDelay(policy: RetryPolicy, retry: number, error: ProviderError): number {
  if (error.retryAfterMs !== undefined) {
    return Math.max(0, Math.min(error.retryAfterMs, policy.maxRetryAfterMs));
  }
  return Math.max(0, Math.min(policy.baseDelayMs * 2 ** retry, policy.maxDelayMs));
}

/** One line for the terminal: `retrying in 4 s (attempt 2/3): 429 rate limited`. */
export function formatRetry(info: RetryInfo): string {
  return `retrying in ${seconds(info.waitMs)} (attempt ${info.attempt}/${info.max}): ` +
    shortReason(info.error);
}

/** A few words on why a request failed: `429 rate limited`, `network error`, … */
export function shortReason(error: ProviderError): string {
  const status = error.status === undefined ? "" : `${error.status} `;
  if (error.status === 429) return `${status}rate limited`;
  if (error.status === 408) return `${status}request timeout`;
  switch (error.kind) {
    case "rate_limit":
      return `${status}rate limited`;
    case "server":
      return `${status}server error`;
    case "network":
      return `${status}network error`;
    case "timeout":
      return `${status}timed out`;
    default:
      return `${status}${error.kind.replace("_", " ")}`;
  }
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : Number(s.toFixed(1))} s`;
}

type EndEvent = Extract<StreamEvent, { type: "end" }>;

function gaveUp(
  end: EndEvent,
  error: ProviderError,
  provider: LlmProvider,
  policy: RetryPolicy,
): EndEvent {
  if (policy.maxRetries === 0) return end;
  const retries = policy.maxRetries === 1 ? "1 retry" : `${policy.maxRetries} retries`;
  const line = `Gave up on ${provider.model} at ${provider.endpoint} after ${retries}: ` +
    error.message;
  log.error(escapeBraces(line), { model: provider.model, endpoint: provider.endpoint, error });
  return { ...end, error: { ...error, message: `${error.message} (gave up after ${retries})` } };
}

function logRetry(provider: LlmProvider, info: RetryInfo): void {
  const line = `Retrying ${provider.model} at ${provider.endpoint} in ${info.waitMs} ms ` +
    `(attempt ${info.attempt}/${info.max}): ${shortReason(info.error)}: ${info.error.message}`;
  log.warn(escapeBraces(line), { model: provider.model, endpoint: provider.endpoint, ...info });
}

/** LogTape reads `{name}` as a placeholder; doubled braces print as they are. */
function escapeBraces(text: string): string {
  return text.replace(/[{}]/g, (b) => b + b);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
