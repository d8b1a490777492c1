/**
 * minoc's own credentials never reach the programs it starts. The session
 * registers the variable its API key is read from (and the key itself);
 * {@link withoutCredentials} then drops those variables, `OPENAI_API_KEY`,
 * and any variable whose value holds a registered key, from the environment
 * of every command, background process and skill script. A command can still
 * read minoc's own environment or arguments (`/proc/<pid>/environ` as root or
 * unconfined, `ps eww`, a script): {@link hideCredentials} removes the keys
 * from every tool's output before the model or the screen sees it, also in the
 * forms a command would print them in (base64, hex, reversed).
 *
 * @example
 * ```ts
 * protectCredentials({ names: ["MY_LLM_KEY"], values: [settings.apiKey] });
 * new Deno.Command("bash", { env: withoutCredentials(Deno.env.toObject()), clearEnv: true });
 * ```
 * @module
 */

/** Variables that always hold minoc's credentials. */
const ALWAYS = ["OPENAI_API_KEY"];
/** Shorter values are not matched by value (too likely to be a coincidence). */
const MIN_VALUE_LENGTH = 8;

const names = new Set<string>(ALWAYS);
const values = new Set<string>();
/** Each registered value in the forms {@link hideCredentials} looks for, longest first. */
let forms: string[] = [];

/** What a hidden key is replaced with. */
export const REDACTED = "[REDACTED]";

/** What {@link protectCredentials} registers. */
export interface Credentials {
  /** Environment variable names that hold a key (e.g. the configured `apiKeyEnv`). */
  names?: readonly string[];
  /** Key values (e.g. one given with `--api-key`). */
  values?: readonly string[];
}

/**
 * Registers credentials to keep from child processes for the rest of this
 * process. The values the named variables have in minoc's own environment are
 * registered too: a command that reads that environment must not show them.
 */
export function protectCredentials(c: Credentials): void {
  for (const n of c.names ?? []) if (n.trim() !== "") names.add(n.trim());
  const own = [...names].map(ownValue);
  for (const v of [...c.values ?? [], ...own]) if (v.length >= MIN_VALUE_LENGTH) values.add(v);
  forms = [...new Set([...values].flatMap(printedForms))].sort((a, b) => b.length - a.length);
}

function ownValue(name: string): string {
  try {
    return Deno.env.get(name) ?? "";
  } catch {
    return ""; // no permission to read the environment: no value to hide either
  }
}

/**
 * `text` with each registered key replaced by {@link REDACTED}, as it is and
 * as commands print bytes: base64 (standard and URL-safe, whatever the key's
 * offset in the encoded stream), hex (either case, unbroken) and reversed.
 */
export function hideCredentials(text: string): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.replaceAll(form, REDACTED);
  return out;
}

/**
 * The strings that stand for `value` in a command's output. A base64 stream
 * encodes the key differently by its offset modulo 3; the characters that
 * depend only on the key's bytes are the same wherever it stands, so the part
 * inside each of the three encodings is searched (its ends, a few characters
 * shared with the bytes around it, are left: they do not make a key).
 */
function printedForms(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  const out = [value, [...value].reverse().join(""), hex, hex.toUpperCase()];
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const b64 = btoa(String.fromCharCode(...padded));
    // Whole groups of 4 characters hold 3 bytes: skip the first group when it holds padding
    // bytes, and the last, which may hold the bytes after the key.
    const inner = b64.slice(offset === 0 ? 0 : 4, Math.floor(b64.length / 4) * 4 - 4);
    if (inner.length >= MIN_VALUE_LENGTH) {
      out.push(inner, inner.replaceAll("+", "-").replaceAll("/", "_"));
    }
  }
  return out;
}

/** Whether `name` is one of minoc's credential variables. */
export function isCredentialName(name: string): boolean {
  return names.has(name) ||
    (Deno.build.os === "windows" && [...names].some((n) => n.toUpperCase() === name.toUpperCase()));
}

/** Whether the variable `name`, whose value is `value`, holds minoc's credentials (by name or by value). */
export function isCredential(name: string, value: string): boolean {
  return isCredentialName(name) || [...values].some((secret) => value.includes(secret));
}

/** A copy of `env` without minoc's credentials (by name and by value). */
export function withoutCredentials(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (!isCredential(k, v)) out[k] = v;
  return out;
}
