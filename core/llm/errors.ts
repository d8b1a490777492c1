/**
 * Turns whatever an OpenAI-compatible request threw into a {@link ProviderError}
 * value with a one-line message, and says which failures are worth retrying.
 *
 * @example
 * ```ts
 * const error = classifyError(e, { baseURL: "http://localhost:11434/v1", model: "qwen3" });
 * if (isRetryable(error)) console.error(`retrying: ${error.message}`);
 * ```
 *
 * @module
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "openai/core/error";
import type { ProviderError } from "../../interfaces/agent.ts";

/** Where the failed request went, for messages. */
export interface ErrorContext {
  baseURL: string;
  model: string;
}

/** Maps an error thrown by the `openai` client (or by fetch) to a {@link ProviderError}. */
export function classifyError(e: unknown, ctx: ErrorContext): ProviderError {
  const url = ctx.baseURL;
  if (e instanceof APIConnectionTimeoutError) {
    return { kind: "timeout", message: `Timed out waiting for ${url}` };
  }
  if (e instanceof APIUserAbortError) {
    return { kind: "unknown", message: `Request to ${url} was cancelled` };
  }
  if (e instanceof APIConnectionError) {
    return { kind: "network", message: `Cannot reach ${url}: ${networkCause(e.cause ?? e)}` };
  }
  if (e instanceof APIError && typeof e.status === "number") return classifyStatus(e, ctx);
  if (e instanceof APIError) {
    return { kind: "server", message: `Server ${url} reported an error: ${serverMessage(e)}` };
  }
  if (isTransportError(e)) {
    return { kind: "network", message: `Connection to ${url} broke: ${networkCause(e)}` };
  }
  const detail = e instanceof Error ? e.message : String(e);
  return { kind: "unknown", message: `Unexpected error from ${url}: ${oneLine(detail)}` };
}

/**
 * True when trying the same request again may succeed: network errors,
 * timeouts, 408, 429 and 5xx. Never for auth, bad requests or unknown models.
 */
export function isRetryable(e: ProviderError): boolean {
  if (e.status === 408) return true;
  return e.kind === "network" || e.kind === "timeout" || e.kind === "rate_limit" ||
    e.kind === "server";
}

function classifyStatus(e: APIError, ctx: ErrorContext): ProviderError {
  const status = e.status as number;
  const detail = serverMessage(e);
  const url = ctx.baseURL;
  if (status === 401 || status === 403) {
    return {
      kind: "auth",
      status,
      message: `${status === 403 ? "Access denied" : "Authentication failed"} at ${url} ` +
        `(${status} ${detail}): ` +
        `set the API key with --api-key or the OPENAI_API_KEY environment variable`,
    };
  }
  if (status === 404) {
    return {
      kind: "not_found",
      status,
      message: `Model "${ctx.model}" not found at ${url} (404 ${detail}): ` +
        `check --model and --base-url`,
    };
  }
  if (status === 400 || status === 422) {
    return { kind: "bad_request", status, message: `Request rejected by ${url}: ${detail}` };
  }
  if (status === 408 || status === 429) {
    const what = status === 429 ? "Rate limited by" : "Request timed out at";
    const retryAfterMs = parseRetryAfter(e.headers);
    return {
      kind: "rate_limit",
      status,
      message: `${what} ${url} (${status}): ${detail}`,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  if (status >= 500) {
    return { kind: "server", status, message: `Server error ${status} at ${url}: ${detail}` };
  }
  return { kind: "unknown", status, message: `Unexpected status ${status} from ${url}: ${detail}` };
}

/**
 * The wait a server asked for: `retry-after-ms` (milliseconds), else
 * `retry-after` as seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(
  headers: Headers | undefined,
  now: number = Date.now(),
): number | undefined {
  const ms = headers?.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.round(Number(ms));
  const value = headers?.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function serverMessage(e: APIError): string {
  const body = e.error as { message?: unknown } | undefined;
  if (typeof body?.message === "string" && body.message) return oneLine(body.message);
  return oneLine(e.message.replace(/^\d{3} /, ""));
}

function isTransportError(e: unknown): boolean {
  return e instanceof TypeError &&
    /body|connection|network|terminated|socket|fetch|reset|closed/i.test(e.message);
}

/** The innermost cause, in a few words: "connection refused", "host not found", … */
function networkCause(e: unknown): string {
  const messages: string[] = [];
  for (let cur = e, i = 0; cur && i < 8; i++) {
    if (cur instanceof Error) messages.push(cur.message);
    else if (typeof cur === "string") messages.push(cur);
    cur = (cur as { cause?: unknown }).cause;
  }
  const all = messages.join(" | ");
  if (/connection refused|ECONNREFUSED/i.test(all)) return "connection refused";
  if (/dns error|failed to lookup|ENOTFOUND|Name or service not known/i.test(all)) {
    return "host not found";
  }
  if (/connection reset|ECONNRESET/i.test(all)) return "connection reset";
  if (/certificate|tls|ssl/i.test(all)) return `TLS error: ${oneLine(messages.at(-1) ?? "")}`;
  if (/timed out|ETIMEDOUT/i.test(all)) return "connection timed out";
  return oneLine(messages.at(-1) ?? "unknown cause");
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/** True when a server refused the request because of `stream_options` (some servers do). */
export function rejectsStreamOptions(e: unknown): boolean {
  return e instanceof APIError && (e.status === 400 || e.status === 422) &&
    /stream_options|include_usage/i.test(e.message);
}
