/**
 * JSON tool calls as open models write them: `{"name": …, "arguments": …}`
 * (or `parameters`, or OpenAI's `{"function": {"name", "arguments"}}`), the
 * arguments an object or a JSON string, alone or in an array.
 *
 * @module
 */

/** One call read from JSON: the tool's name and its raw arguments. */
export interface JsonCall {
  name: string;
  args: Record<string, unknown>;
}

/**
 * End (exclusive) of the JSON object or array starting at `text[start]`,
 * honouring strings; -1 when it does not close. Linear in its length.
 */
export function jsonEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = stringEnd(text, i + 1);
      if (i < 0) return -1;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

/** Index of the quote closing a JSON string whose text starts at `i`, or -1. */
function stringEnd(text: string, i: number): number {
  for (let q = text.indexOf('"', i); q >= 0; q = text.indexOf('"', q + 1)) {
    let b = q - 1;
    while (text.charCodeAt(b) === 92) b--;
    if ((q - 1 - b) % 2 === 0) return q;
  }
  return -1;
}

/** Parses JSON, or undefined when it is not valid. */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The calls a parsed JSON value holds: one object, or an array of them.
 * Returns null when the value does not look like tool calls at all.
 */
export function callsOf(value: unknown): JsonCall[] | null {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return null;
  const calls: JsonCall[] = [];
  for (const item of items) {
    const call = callOf(item);
    if (call === null) return null;
    calls.push(call);
  }
  return calls;
}

function callOf(item: unknown): JsonCall | null {
  if (!isObject(item)) return null;
  const fn = isObject(item.function) ? item.function : item;
  const name = fn.name ?? fn.tool_name ?? fn.tool;
  if (typeof name !== "string" || name === "") return null;
  const raw = fn.arguments ?? fn.parameters ?? fn.args ?? fn.input ?? {};
  const args = typeof raw === "string" ? (raw.trim() === "" ? {} : tryJson(raw)) : raw;
  if (!isObject(args)) return null;
  return { name, args };
}

/** Whether `v` is a plain JSON object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * A JSON argument value as the raw string a parameter takes: strings as they
 * are, numbers and booleans printed, anything else as JSON; null is absent.
 */
export function argText(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}
