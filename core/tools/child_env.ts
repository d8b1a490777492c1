/**
 * minoc's own credentials never reach the programs it starts. The session
 * registers the variable its API key is read from (and the key itself);
 * {@link withoutCredentials} then drops those variables, `OPENAI_API_KEY`,
 * and any variable whose value holds a registered key, from the environment
 * of every command, background process and skill script.
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

/** What {@link protectCredentials} registers. */
export interface Credentials {
  /** Environment variable names that hold a key (e.g. the configured `apiKeyEnv`). */
  names?: readonly string[];
  /** Key values (e.g. one given with `--api-key`). */
  values?: readonly string[];
}

/** Registers credentials to keep from child processes for the rest of this process. */
export function protectCredentials(c: Credentials): void {
  for (const n of c.names ?? []) if (n.trim() !== "") names.add(n.trim());
  for (const v of c.values ?? []) if (v.length >= MIN_VALUE_LENGTH) values.add(v);
}

/** The registered key values (for redaction). */
export function credentialValues(): readonly string[] {
  return [...values];
}

/** Whether `name` is one of minoc's credential variables. */
export function isCredentialName(name: string): boolean {
  return names.has(name) ||
    (Deno.build.os === "windows" && [...names].some((n) => n.toUpperCase() === name.toUpperCase()));
}

/** A copy of `env` without minoc's credentials (by name and by value). */
export function withoutCredentials(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (isCredentialName(k)) continue;
    if ([...values].some((secret) => v.includes(secret))) continue;
    out[k] = v;
  }
  return out;
}
