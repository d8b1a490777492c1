/**
 * The questions of `minoc setup`, one function per step: the provider, how
 * the API key is kept (the name of an environment variable, or typed
 * without echo and kept in a file only the user can read), and the model
 * from the server's list. Each step returns plain data; Ctrl+C in any
 * prompt throws inquirer's `ExitPromptError`, which the wizard turns into a
 * cancel that changes nothing.
 *
 * @module
 */
import { fetchServerModels } from "../core/llm/server_models.ts";
import { isChatModel, rankModels } from "../core/llm/discover.ts";

/** A provider the wizard offers. */
export interface ProviderChoice {
  name: string;
  /** Base URL; absent for "any URL" (asked). */
  url?: string;
  /** Whether a key is needed, optional or never used. */
  key: "required" | "optional" | "none";
  /** The usual environment variable of its key. */
  keyEnv?: string;
  /** File name for a typed key, under `config/keys/`. */
  slug: string;
}

/** The providers offered, in order. */
export const PROVIDERS: readonly ProviderChoice[] = [
  {
    name: "OpenAI",
    url: "https://api.openai.com/v1",
    key: "required",
    keyEnv: "OPENAI_API_KEY",
    slug: "openai",
  },
  { name: "Ollama (local)", url: "http://127.0.0.1:11434/v1", key: "none", slug: "ollama" },
  { name: "LM Studio (local)", url: "http://127.0.0.1:1234/v1", key: "none", slug: "lmstudio" },
  {
    name: "OpenRouter",
    url: "https://openrouter.ai/api/v1",
    key: "required",
    keyEnv: "OPENROUTER_API_KEY",
    slug: "openrouter",
  },
  { name: "Another OpenAI-compatible server (any URL)", key: "optional", slug: "custom" },
];

/** How the key is kept. */
export type KeyChoice =
  | { kind: "none" }
  | { kind: "env"; name: string; value: string }
  | { kind: "file"; value: string };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The prompts the wizard uses, loaded together on first use. */
async function prompts() {
  const [select, input, password] = await Promise.all([
    import("@inquirer/select"),
    import("@inquirer/input"),
    import("@inquirer/password"),
  ]);
  return { select: select.default, input: input.default, password: password.default };
}

/** Step 1: the provider and its base URL. */
export async function askProvider(): Promise<{ provider: ProviderChoice; baseURL: string }> {
  const { input, select } = await prompts();
  const index = await select({
    message: "Which model provider?",
    choices: PROVIDERS.map((p, i) => ({ name: p.name, value: i })),
  });
  const provider = PROVIDERS[index];
  const baseURL = provider.url ?? (await input({
    message: "Base URL of the server (with its /v1 path)",
    validate: (v) =>
      /^https?:\/\/[^/\s]+\S*$/i.test(v.trim()) ||
      'Expected an http:// or https:// URL such as "http://127.0.0.1:8080/v1"',
  })).trim().replace(/\/+$/, "");
  return { provider, baseURL };
}

/** Step 2: where the key comes from (the key itself is never shown). */
export async function askKey(
  p: ProviderChoice,
  env: Record<string, string | undefined>,
): Promise<KeyChoice> {
  if (p.key === "none") return { kind: "none" };
  const { input, password, select } = await prompts();
  const usual = p.keyEnv;
  const kind = await select({
    message: "How should minoc get the API key?",
    choices: [
      ...(usual
        ? [{
          name: `From the environment variable ${usual} (${env[usual] ? "set" : "not set now"})`,
          value: "usual",
        }]
        : []),
      { name: "From another environment variable", value: "env" },
      { name: "Type it now (kept in a file only you can read)", value: "file" },
      ...(p.key === "optional" ? [{ name: "No key", value: "none" }] : []),
    ],
  });
  if (kind === "none") return { kind: "none" };
  if (kind === "file") {
    const value = await password({
      message: "API key (not shown)",
      validate: (v) => /^\S+$/.test(v.trim()) || "Expected the key, with no spaces",
    });
    return { kind: "file", value: value.trim() };
  }
  const name = kind === "usual" && usual ? usual : (await input({
    message: "Name of the environment variable",
    validate: (v) => ENV_NAME.test(v.trim()) || "Expected a name such as MY_API_KEY",
  })).trim();
  return { kind: "env", name, value: env[name] ?? "" };
}

/** Step 3: the model, picked from the server's list (typed when there is none). */
export async function askModel(
  baseURL: string,
  apiKey: string,
  write: (line: string) => void,
): Promise<string> {
  const { input, select } = await prompts();
  const listed = await fetchServerModels({ baseURL, apiKey, timeoutMs: 15_000 });
  if (listed.ok && listed.models.length > 0) {
    const models = rankModels(listed.models);
    return await select({
      message: `Which model? (${models.length} on the server)`,
      choices: models.map((m) => ({
        name: isChatModel(m) ? m : `${m} (not a chat model)`,
        value: m,
      })),
      pageSize: 12,
    });
  }
  write(listed.ok ? "The server lists no models." : listed.message);
  return (await input({
    message: "Model name",
    validate: (v) => v.trim() !== "" || "Expected a model name",
  })).trim();
}
