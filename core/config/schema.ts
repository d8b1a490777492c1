/**
 * The zod schemas of `.minoc/config/settings.json` and `models.json`, and the
 * one function that turns a file's text into a value or into messages naming
 * the file, the field and what is expected:
 * `Cannot read config "/x/.minoc/config/settings.json": field "retry.maxRetries" must be an integer (got 2.5)`.
 *
 * Both schemas are strict: an unknown field is an error, so a typo never
 * passes silently.
 *
 * @example
 * ```ts
 * const r = parseConfigText(await Deno.readTextFile(path), path, "settings");
 * if (!r.ok) console.error(r.problems.join("\n"));
 * ```
 * @module
 */
import * as z from "zod";

const between = (min: number, max: number) => `must be from ${min} to ${max}`;
const num = (min: number, max: number) =>
  z.number().min(min, between(min, max)).max(max, between(min, max));
const int = (min: number, max: number) =>
  z.int({ error: "must be an integer" }).min(min, between(min, max)).max(max, between(min, max));

const HTTP_URL = /^https?:\/\/[^/\s]+\S*$/i;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `retry` in settings.json; every field optional. */
export const RetrySchema = z.strictObject({
  maxRetries: int(0, 20),
  baseDelayMs: int(0, 600_000),
  maxDelayMs: int(0, 3_600_000),
  maxRetryAfterMs: int(0, 3_600_000),
}).partial();

/** `sandbox` in settings.json: the OS sandbox of commands (see core/sandbox/policy.ts). */
export const SandboxSchema = z.strictObject({
  writable: z.array(z.string().min(1, "must not be empty")),
  network: z.enum(["on", "off"]),
  unconfined: z.enum(["ask", "allow"]),
}).partial();

/** The zod schema of settings.json. */
export const SettingsFileSchema = z.strictObject({
  $schema: z.string().optional(),
  baseUrl: z.string().regex(HTTP_URL, "must be an http:// or https:// URL").optional(),
  model: z.string().min(1, "must not be empty").optional(),
  apiKeyEnv: z.string().regex(
    ENV_NAME,
    "must be an environment variable name such as OPENAI_API_KEY",
  )
    .optional(),
  apiKeyFile: z.string().min(1, "must not be empty").optional(),
  temperature: num(0, 2).optional(),
  topP: num(0, 1).optional(),
  topK: int(1, 1_000_000).optional(),
  maxTokens: int(1, 10_000_000).optional(),
  retry: RetrySchema.optional(),
  /** Longest wait (ms) for the reply to start and between two chunks of it. */
  idleTimeoutMs: int(1_000, 3_600_000).optional(),
  progress: z.boolean().optional(),
  maxTurns: int(1, 10_000).optional(),
  contextWindow: int(256, 100_000_000).optional(),
  allowUnconfinedScripts: z.boolean().optional(),
  sandbox: SandboxSchema.optional(),
});

/** The values `maxTokensField` accepts. */
export const MAX_TOKENS_FIELDS = ["max_tokens", "max_completion_tokens"] as const;

/** `quirks` of one model in models.json. */
export const QuirksSchema = z.strictObject({
  maxTokensField: z.enum(MAX_TOKENS_FIELDS),
  streamOptions: z.boolean(),
  sendReasoning: z.boolean(),
}).partial();

/** One model's entry in models.json. */
export const ModelEntrySchema = z.strictObject({
  customInstructions: z.string().optional(),
  temperature: num(0, 2).optional(),
  topP: num(0, 1).optional(),
  topK: int(1, 1_000_000).optional(),
  maxTokens: int(1, 10_000_000).optional(),
  contextWindow: int(256, 100_000_000).optional(),
  quirks: QuirksSchema.optional(),
});

/** The zod schema of models.json: model name → entry. */
export const ModelsFileSchema = z.record(z.string().min(1), ModelEntrySchema);

/** A valid settings.json. */
export type SettingsFile = z.output<typeof SettingsFileSchema>;
/** A valid models.json. */
export type ModelsFile = z.output<typeof ModelsFileSchema>;
/** One entry of models.json. */
export type ModelEntry = z.output<typeof ModelEntrySchema>;

/** The configuration files this module knows. */
export type ConfigKind = "settings" | "models";

/** What a file's text turned out to be. */
export type ParsedConfig<K extends ConfigKind> =
  | { ok: true; value: K extends "settings" ? SettingsFile : ModelsFile }
  | { ok: false; problems: string[] };

/** Parses and validates a file's text; every problem names `path`. */
export function parseConfigText<K extends ConfigKind>(
  text: string,
  path: string,
  kind: K,
): ParsedConfig<K> {
  const prefix = `Cannot read config "${path}": `;
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    return { ok: false, problems: [prefix + jsonProblem(text, (e as Error).message)] };
  }
  const schema = kind === "settings" ? SettingsFileSchema : ModelsFileSchema;
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return { ok: true, value: r.data } as ParsedConfig<K>;
  const problems = r.error.issues.flatMap((issue) => describeIssue(issue, kind));
  return { ok: false, problems: problems.map((p) => prefix + p) };
}

/** `invalid JSON at line 3, column 5: expected ',' or '}' after property value`. */
function jsonProblem(text: string, message: string): string {
  if (text.trim() === "") return "the file is empty (expected a JSON object such as {})";
  const position = positionIn(message) ?? failurePosition(text);
  const token = /^Unexpected token '([\s\S]*?)', [\s\S]* is not valid JSON$/.exec(message);
  const what = token
    ? `unexpected character ${JSON.stringify(token[1])}`
    : message.replace(/ in JSON at position \d+[\s\S]*$/, "").replace(
      /^\w/,
      (c) => c.toLowerCase(),
    );
  const before = text.slice(0, position).split("\n");
  return `invalid JSON at line ${before.length}, column ${before.at(-1)!.length + 1}: ${what}`;
}

function positionIn(message: string): number | undefined {
  const m = / in JSON at position (\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
}

/**
 * Where parsing goes wrong, for messages that do not say: the length of the
 * longest prefix that could still grow into valid JSON (found by bisection).
 */
function failurePosition(text: string): number {
  const viable = (prefix: string) => {
    try {
      JSON.parse(prefix);
      return true;
    } catch (e) {
      const message = (e as Error).message;
      return /end of JSON input/.test(message) || positionIn(message) === prefix.length;
    }
  };
  let [lo, hi] = [0, text.length];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (viable(text.slice(0, mid))) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The field of an issue as `retry.maxRetries` or `['qwen2.5:7b'].quirks`. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, seg) => {
    if (typeof seg === "number") return `${acc}[${seg}]`;
    const key = String(seg);
    if (/^[A-Za-z_$][\w$-]*$/.test(key)) return acc ? `${acc}.${key}` : key;
    return `${acc}['${key}']`;
  }, "");
}

function describeIssue(issue: z.core.$ZodIssue, kind: ConfigKind): string[] {
  const field = fieldName(issue.path);
  const where = `field "${field}"`;
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => unknownKey(issue.path, key, kind));
    case "invalid_type":
      if (issue.path.length === 0) return [`expected a JSON object (got ${typeName(issue.input)})`];
      return [`${where} ${mustBe(issue)} (got ${shown(issue.input)})`];
    case "invalid_value":
      return [
        `${where} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")} ` +
        `(got ${shown(issue.input)})`,
      ];
    case "too_small":
    case "too_big":
    case "invalid_format":
      return [`${where} ${issue.message} (got ${shown(issue.input)})`];
    default:
      return [`${where} is invalid: ${issue.message}`];
  }
}

const KEYS = {
  settings: Object.keys(SettingsFileSchema.shape).filter((k) => k !== "$schema"),
  retry: Object.keys(RetrySchema.shape),
  model: Object.keys(ModelEntrySchema.shape),
  quirks: Object.keys(QuirksSchema.shape),
};

function unknownKey(parent: readonly PropertyKey[], key: string, kind: ConfigKind): string {
  const field = fieldName([...parent, key]);
  if (kind === "settings" && parent.length === 0 && /^api_?key$/i.test(key)) {
    return `field "${field}" is not allowed: keep the key in an environment variable ` +
      `and put its name in "apiKeyEnv"`;
  }
  const allowed = kind === "settings"
    ? (parent.length === 0 ? KEYS.settings : KEYS.retry)
    : (parent.length === 1 ? KEYS.model : KEYS.quirks);
  return `unknown field "${field}" (expected one of: ${allowed.join(", ")})`;
}

/** `must be a number`, or the schema's own `must …` message when it has one. */
function mustBe(issue: z.core.$ZodIssueInvalidType): string {
  if (issue.message.startsWith("must ")) return issue.message;
  switch (issue.expected) {
    case "int":
      return "must be an integer";
    case "number":
      return "must be a number";
    case "boolean":
      return "must be true or false";
    case "string":
      return "must be a string";
    case "object":
      return "must be an object";
    default:
      return `must be of type ${issue.expected}`;
  }
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = typeof value === "object" && value !== null
    ? typeName(value)
    : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
