/**
 * Text from the model, a tool, a command or a file is shown, never obeyed:
 * terminal control characters become visible escapes before anything
 * reaches the terminal. C0 controls (but line feed and tab), DEL, C1
 * controls, ESC and carriage return turn into `\x1b`, `\r`, `\x9b` …; bidi
 * overrides and isolates, and other invisible direction or line-separator
 * marks, into `\u202e` and the like. A command that hides itself behind
 * `ESC[2K ESC[1A` or `U+202E` shows exactly what it is.
 *
 * @example
 * ```ts
 * visible("touch x # \x1b[2K\x1b[1A$ ls"); // "touch x # \\x1b[2K\\x1b[1A$ ls"
 * visible("a\u202Eb"); // "a\\u202eb"
 * ```
 * @module
 */

const UNSAFE =
  // deno-lint-ignore no-control-regex
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control, bidi and line-separator character written as a visible escape. */
export function visible(text: string): string {
  return text.replace(UNSAFE, escapeOf);
}

function escapeOf(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch === "\r") return "\\r";
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

/** Whether `text` holds anything {@link visible} would change. */
export function hasUnsafe(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return found;
}

/**
 * A copy of plain data (events, previews, reports) with {@link visible}
 * applied to every string in it, up to a few levels deep. Functions,
 * class instances other than arrays and plain objects, and errors' own
 * fields beyond `message` are left as they are.
 */
export function visibleDeep<T>(value: T, depth = 0): T {
  if (typeof value === "string") return visible(value) as T;
  if (depth > 6 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => visibleDeep(v, depth + 1)) as T;
  if (value instanceof Error) {
    const copy = new Error(visible(value.message));
    copy.name = value.name;
    return Object.assign(copy, visibleDeep({ ...value }, depth + 1)) as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = visibleDeep(v, depth + 1);
  return out as T;
}
