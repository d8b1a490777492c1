/**
 * Connection and run settings resolved from flags and environment
 * (flags > environment > defaults). Configuration files come with #8.
 *
 * @module
 */
import type { ModelParams } from "../../interfaces/agent.ts";

/** The OpenAI API, used when a key is given without a base URL. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** The model used against the OpenAI API when none is named. */
export const DEFAULT_OPENAI_MODEL = "gpt-4.1-mini";
/** Replies allowed for one request unless `--max-turns` says otherwise. */
export const DEFAULT_MAX_TURNS = 25;

/** Values given on the command line (all optional). */
export interface SettingFlags {
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  temperature?: number;
  topP?: number;
  topK?: number;
  maxTokens?: number;
  maxTurns?: number;
  cwd?: string;
}

/** The environment variables minoc reads. */
export interface SettingEnv {
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  MINOC_MODEL?: string;
}

/** Everything needed to talk to a model and run a task. */
export interface Settings {
  baseURL: string;
  apiKey: string;
  params: ModelParams;
  maxTurns: number;
  cwd: string;
}

/** Settings, or a message saying how to fix the configuration. */
export type SettingsResult = { ok: true; settings: Settings } | { ok: false; message: string };

/** Merges flags over environment over defaults and checks the result. */
export function resolveSettings(
  flags: SettingFlags,
  env: SettingEnv,
  defaultCwd: string,
): SettingsResult {
  const key = flags.apiKey ?? nonEmpty(env.OPENAI_API_KEY);
  const url = flags.baseUrl ?? nonEmpty(env.OPENAI_BASE_URL);
  if (!key && !url) {
    return {
      ok: false,
      message: "No model server configured: set OPENAI_API_KEY (or --api-key) for OpenAI, " +
        "or --base-url / OPENAI_BASE_URL for a compatible server such as Ollama " +
        '("http://localhost:11434/v1"), together with --model or MINOC_MODEL',
    };
  }
  const baseURL = url ?? OPENAI_BASE_URL;
  if (!/^https?:\/\/[^/\s]+/i.test(baseURL)) {
    return {
      ok: false,
      message: `Invalid base URL "${baseURL}": expected an http:// or https:// URL ` +
        'such as "http://localhost:11434/v1"',
    };
  }
  const model = flags.model ?? nonEmpty(env.MINOC_MODEL) ??
    (baseURL === OPENAI_BASE_URL ? DEFAULT_OPENAI_MODEL : undefined);
  if (!model) {
    return {
      ok: false,
      message: `No model named for "${baseURL}": set --model or MINOC_MODEL ` +
        '(for example "llama3.1" on Ollama)',
    };
  }
  const params: ModelParams = { model };
  if (flags.temperature !== undefined) params.temperature = flags.temperature;
  if (flags.topP !== undefined) params.topP = flags.topP;
  if (flags.topK !== undefined) params.topK = flags.topK;
  if (flags.maxTokens !== undefined) params.maxTokens = flags.maxTokens;
  return {
    ok: true,
    settings: {
      baseURL: baseURL.replace(/\/+$/, ""),
      // Local servers need no key: an empty one sends no Authorization header.
      apiKey: key ?? "",
      params,
      maxTurns: flags.maxTurns ?? DEFAULT_MAX_TURNS,
      cwd: flags.cwd ?? defaultCwd,
    },
  };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v && v.trim() !== "" ? v.trim() : undefined;
}
