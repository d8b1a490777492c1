/**
 * Removes secrets (API keys, bearer tokens) from text and values before they
 * are logged.
 *
 * @example
 * ```ts
 * redactText("Authorization: Bearer sk-abc123abc123"); // "Authorization: [REDACTED]"
 * redactValue({ apiKey: "sk-abc", model: "m" });      // { apiKey: "[REDACTED]", model: "m" }
 * ```
 * @module
 */
import type { LogRecord } from "@logtape/logtape";
import { hideCredentials, REDACTED } from "../tools/child_env.ts";

/** What a secret is replaced with. */
export { REDACTED };

const SECRET_KEY = /^(api[_-]?key|authorization|proxy[_-]authorization|x[_-]api[_-]key)$/i;
const PATTERNS: [RegExp, string][] = [
  // `apiKey: "…"`, `api_key=…`, `"authorization": "…"` inside text (JSON, URLs, headers), also
  // as JSON holding JSON writes it (`\"api_key\": \"…\"`).
  [
    /((?:api[_-]?key|authorization|x-api-key)\\*["']?\s*[:=]\s*\\*["']?)(?:Bearer\s+)?[^\s"'&,;}\\]+/gi,
    `$1${REDACTED}`,
  ],
  // `OPENAI_API_KEY=…`, `GH_TOKEN: …` (environment-style names, so code such as `sort_key = x`
  // stays), also right after an escaped newline (`\nMY_SECRET=…`).
  [
    /((?:^|[^A-Za-z0-9]|\\[nrt])[A-Z0-9_]*(?:_KEY|_TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)\\*["']?[ \t]*[:=][ \t]*\\*["']?)[^\s"'&,;}\\]+/g,
    `$1${REDACTED}`,
  ],
  // `https://user:pass@host`: the password.
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:"'\\]+:)[^\s/@"'\\]+@/gi, `$1${REDACTED}@`],
  // `https://ghp_longtoken@host`: a lone user part long enough to be a token.
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[A-Za-z0-9_.~-]{20,}@/gi, `$1${REDACTED}@`],
  // `?key=…`, `&token=…`, `&access_token=…`, `&sig=…` in URLs.
  [
    /([?&;](?:key|api[_-]?key|apikey|token|access[_-]?token|refresh[_-]?token|id[_-]?token|secret|client[_-]?secret|password|passwd|pwd|auth|sig|signature|code)=)[^&\s"'#\\]+/gi,
    `$1${REDACTED}`,
  ],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, `Bearer ${REDACTED}`],
  [/\bsk-[A-Za-z0-9_-]{3,}/g, REDACTED],
];
const MAX_DEPTH = 8;

/** Text none of {@link PATTERNS} can match lacks all of these: one scan rules the rest out. */
const MAYBE =
  /key|author|token|secret|passw|pwd|credential|:\/\/|bearer|sk-|[?&;](?:sig|signature|code|auth)=/i;

/** Replaces every key-like substring of `text`. */
export function redactText(text: string): string {
  let out = hideCredentials(text);
  if (!MAYBE.test(out)) return out;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * `value` as JSON with secrets replaced: each string is scanned as it is (a
 * quote inside it is not yet escaped, which would hide `"api_key": "…"` from
 * the patterns), and a field name such as `promptTokens` is not text a
 * pattern could match and make every pattern run.
 */
export function redactedJson(value: unknown): string {
  return JSON.stringify(redactValue(value));
}

/**
 * A copy of `value` with secrets replaced: strings are scanned, properties
 * named like a key (`apiKey`, `api_key`, `authorization`…) are blanked, errors
 * keep their name but get a scanned message and stack. Other objects become
 * plain copies of their own properties, so no field escapes the scan.
 */
export function redactValue(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === "string") return redactText(value);
  if (typeof value !== "object" || value === null) return value;
  if (seen.has(value) || depth >= MAX_DEPTH) return "[…]";
  seen.add(value);
  if (value instanceof Error) return redactError(value, depth, seen);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1, seen));
  if (value instanceof Headers) return redactValue(Object.fromEntries(value), depth, seen);
  if (value instanceof Date || value instanceof RegExp) return value;
  if (value instanceof Map) return redactValue(Object.fromEntries(value), depth, seen);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : redactValue(v, depth + 1, seen);
  }
  return out;
}

/** A copy of a log record with every secret replaced. */
export function redactRecord(record: LogRecord): LogRecord {
  const raw = record.rawMessage;
  return {
    ...record,
    message: record.message.map((part) => redactValue(part)),
    rawMessage: typeof raw === "string" ? redactText(raw) : raw,
    properties: redactValue(record.properties) as Record<string, unknown>,
  };
}

function redactError(error: Error, depth: number, seen: WeakSet<object>): Error {
  const copy = new Error(redactText(error.message));
  copy.name = error.name;
  copy.stack = error.stack === undefined ? undefined : redactText(error.stack);
  if (error.cause !== undefined) copy.cause = redactValue(error.cause, depth + 1, seen);
  return copy;
}
