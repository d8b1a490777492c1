import assert from "node:assert/strict";
import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai/core/error";
import type { ProviderError } from "../../../interfaces/agent.ts";
import {
  classifyError,
  isRetryable,
  parseRetryAfter,
  rejectsStreamOptions,
} from "../../../core/llm/errors.ts";

const CTX = { baseURL: "http://example.test/v1", model: "gpt-x" };

/** The error the openai client itself builds for an HTTP answer. */
function httpError(status: number, message: string, headers: Record<string, string> = {}) {
  return APIError.generate(status, { error: { message } }, undefined, new Headers(headers));
}

Deno.test("`classifyError()` maps each HTTP status to its kind", () => {
  const cases: [number, ProviderError["kind"]][] = [
    [400, "bad_request"],
    [401, "auth"],
    [403, "auth"],
    [404, "not_found"],
    [408, "rate_limit"],
    [409, "unknown"],
    [422, "bad_request"],
    [429, "rate_limit"],
    [500, "server"],
    [502, "server"],
    [503, "server"],
  ];
  for (const [status, kind] of cases) {
    const error = classifyError(httpError(status, "detail text"), CTX);
    assert.equal(error.kind, kind, `status ${status}`);
    assert.equal(error.status, status);
    assert.match(error.message, /detail text/);
    assert.doesNotMatch(error.message, /\n/);
  }
});

Deno.test("`classifyError()` says how to set the key when the status is 401", () => {
  const error = classifyError(httpError(401, "Invalid key"), CTX);
  assert.match(error.message, /--api-key/);
  assert.match(error.message, /OPENAI_API_KEY/);
  assert.ok(error.message.includes(CTX.baseURL));
});

Deno.test("`classifyError()` names the model and base URL when the status is 404", () => {
  const error = classifyError(httpError(404, "No such model"), CTX);
  assert.ok(error.message.includes(`"gpt-x"`));
  assert.ok(error.message.includes(CTX.baseURL));
});

Deno.test("`classifyError()` reads the wait from retry headers when rate limited", () => {
  const ms = classifyError(httpError(429, "slow", { "retry-after-ms": "750" }), CTX);
  assert.equal(ms.retryAfterMs, 750);
  const seconds = classifyError(httpError(429, "slow", { "retry-after": "3" }), CTX);
  assert.equal(seconds.retryAfterMs, 3000);
  const none = classifyError(httpError(429, "slow"), CTX);
  assert.equal("retryAfterMs" in none, false);
});

Deno.test("`parseRetryAfter()` reads an HTTP date relative to now", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  const headers = new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:05 GMT" });
  assert.equal(parseRetryAfter(headers, now), 5000);
  const past = new Headers({ "retry-after": "Tue, 31 Dec 2024 23:59:00 GMT" });
  assert.equal(parseRetryAfter(past, now), 0);
  assert.equal(parseRetryAfter(new Headers({ "retry-after": "soon" }), now), undefined);
  assert.equal(parseRetryAfter(new Headers({ "retry-after": "1.5" }), now), 1500);
  assert.equal(parseRetryAfter(undefined, now), undefined);
});

Deno.test("`classifyError()` maps connection failures to network and timeouts to timeout", () => {
  const refused = new APIConnectionError({
    cause: new TypeError("fetch failed", {
      cause: new Error("tcp connect error: Connection refused (os error 111)"),
    }),
  });
  assert.deepEqual(classifyError(refused, CTX), {
    kind: "network",
    message: "Cannot reach http://example.test/v1: connection refused",
  });
  const dns = new APIConnectionError({ cause: new TypeError("dns error: failed to lookup") });
  assert.match(classifyError(dns, CTX).message, /: host not found$/);
  const timeout = classifyError(new APIConnectionTimeoutError(), CTX);
  assert.equal(timeout.kind, "timeout");
  assert.ok(timeout.message.includes(CTX.baseURL));
});

Deno.test("`classifyError()` maps a broken response body to network", () => {
  const error = classifyError(new TypeError("error reading a body from connection"), CTX);
  assert.equal(error.kind, "network");
  assert.match(error.message, /error reading a body from connection/);
});

Deno.test("`classifyError()` maps anything else to unknown on one line", () => {
  const error = classifyError(new RangeError("odd\nthing"), CTX);
  assert.equal(error.kind, "unknown");
  assert.equal(error.message, "Unexpected error from http://example.test/v1: odd thing");
  assert.equal(classifyError("plain string", CTX).kind, "unknown");
});

Deno.test("`isRetryable()` is true only for transient kinds", () => {
  const retryable = ["network", "timeout", "rate_limit", "server"] as const;
  const final = ["auth", "bad_request", "not_found", "unknown"] as const;
  for (const kind of retryable) assert.equal(isRetryable({ kind, message: "" }), true, kind);
  for (const kind of final) assert.equal(isRetryable({ kind, message: "" }), false, kind);
  assert.equal(isRetryable({ kind: "unknown", status: 408, message: "" }), true);
});

Deno.test("`rejectsStreamOptions()` is true only for a 400 that mentions stream_options", () => {
  assert.equal(rejectsStreamOptions(httpError(400, "stream_options is not supported")), true);
  assert.equal(rejectsStreamOptions(httpError(400, "Unrecognized argument: include_usage")), true);
  assert.equal(rejectsStreamOptions(httpError(400, "Context length exceeded")), false);
  assert.equal(rejectsStreamOptions(httpError(500, "stream_options broke")), false);
  assert.equal(rejectsStreamOptions(new Error("stream_options")), false);
});
