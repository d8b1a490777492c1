/**
 * Connection and run settings merged from flags, environment, configuration
 * files and defaults — flags > environment > project `.minoc/` > home
 * `.minoc/` > defaults — with the source of every value.
 *
 * Within one `.minoc/` folder, the chosen model's entry in models.json beats
 * the general value in settings.json. This module is pure: `load.ts` reads
 * the files and hands them in as {@link FileLayer}s.
 *
 * @example
 * ```ts
 * const r = resolveSettings({ model: "qwen3", baseUrl: "http://localhost:11434/v1" }, {}, Deno.cwd());
 * if (r.ok) console.log(r.settings.params.model); // "qwen3"
 * ```
 * @module
 */
import type { ModelParams } from "../../interfaces/agent.ts";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../llm/retry.ts";
import { defaultQuirks, type ModelQuirks } from "./models.ts";
import type { ModelEntry, ModelsFile, SandboxSchema, SettingsFile } from "./schema.ts";
import type { z } from "zod";

/** `sandbox` in settings.json. */
export type SandboxSettings = z.output<typeof SandboxSchema>;

/** The OpenAI API, used when a key is given without a base URL. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** The model used against the OpenAI API when none is named. */
export const DEFAULT_OPENAI_MODEL = "gpt-4.1-mini";
/** Replies allowed for one request unless `--max-turns` says otherwise. */
export const DEFAULT_MAX_TURNS = 25;
/** Context window assumed for a model nobody described. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;
/** Default of `idleTimeoutMs`: two minutes without output (text or reasoning) from the model. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** The environment variable that holds the API key unless `apiKeyEnv` names another. */
export const DEFAULT_API_KEY_ENV = "OPENAI_API_KEY";

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
  /** False with `--quiet` / `--no-progress`. */
  progress?: boolean;
}

/** The environment variables minoc reads (plus the one `apiKeyEnv` names). */
export interface SettingEnv {
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  MINOC_MODEL?: string;
}

/** Everything needed to talk to a model and run a task. */
export interface Settings {
  baseURL: string;
  apiKey: string;
  /** The environment variable the key is read from. */
  apiKeyEnv: string;
  params: ModelParams;
  maxTurns: number;
  cwd: string;
  retry: RetryPolicy;
  /** Longest wait (ms) for a reply to start and between two of its chunks; then it is retried. */
  idleTimeoutMs: number;
  /** Show spinners and progress lines. */
  progress: boolean;
  /** Tokens the model can take in. */
  contextWindow: number;
  /** The model's own instructions, appended to the common system prompt. */
  customInstructions?: string;
  modelQuirks: ModelQuirks;
  /** Run bash/sh skill scripts even where the operating system cannot confine their writes. */
  allowUnconfinedScripts: boolean;
  /** The commands' sandbox, read from the user's own settings.json only (never a project's). */
  sandbox: SandboxSettings;
}

/** Settings, or a message saying how to fix the configuration. */
export type SettingsResult = { ok: true; settings: Settings } | { ok: false; message: string };

/** Field → where its value came from: `flag`, `env NAME`, a file path, or `default`. */
export type SettingSources = Record<string, string>;

/** One `.minoc/config/` folder's files, already validated (absent files left out). */
export interface FileLayer {
  settingsPath: string;
  settings?: SettingsFile;
  modelsPath: string;
  models?: ModelsFile;
  /** The key read from the file `settings.apiKeyFile` names (see key_file.ts). */
  apiKey?: string;
}

/** What {@link mergeSettings} merges; `files` in precedence order (project first). */
export interface MergeInputs {
  flags: SettingFlags;
  env: Record<string, string | undefined>;
  files: readonly FileLayer[];
  defaultCwd: string;
}

/** Merged settings with their sources, or a message saying how to fix them. */
export type MergeResult =
  | { ok: true; settings: Settings; sources: SettingSources }
  | { ok: false; message: string; noServer?: true };

type Value = string | number | boolean;
interface Layer {
  source: string;
  values: Record<string, Value | undefined>;
}

/** Merges flags over environment over defaults and checks the result. */
export function resolveSettings(
  flags: SettingFlags,
  env: SettingEnv,
  defaultCwd: string,
): SettingsResult {
  const r = mergeSettings({ flags, env: { ...env }, files: [], defaultCwd });
  return r.ok ? { ok: true, settings: r.settings } : r;
}

/** Merges every layer, field by field, and checks the connection settings. */
export function mergeSettings(i: MergeInputs): MergeResult {
  const sources: SettingSources = {};
  const conn = connection(i, sources);
  if (!conn.ok) return conn;
  const { model, head } = conn;
  const layers = [...head, ...i.files.flatMap((f) => fileLayersOf(f, model)), defaultsFor(model)];
  const get = <T extends Value>(field: string) => pick<T>(layers, field, sources);
  const params: ModelParams = { model };
  for (const p of ["temperature", "topP", "topK", "maxTokens"] as const) {
    const v = get<number>(p);
    if (v !== undefined) params[p] = v;
  }
  const customInstructions = get<string>("customInstructions");
  const settings: Settings = {
    baseURL: conn.baseURL,
    // Local servers need no key: an empty one sends no Authorization header.
    apiKey: conn.apiKey,
    apiKeyEnv: conn.apiKeyEnv,
    params,
    maxTurns: get<number>("maxTurns")!,
    cwd: get<string>("cwd") ?? i.defaultCwd,
    retry: {
      maxRetries: get<number>("retry.maxRetries")!,
      baseDelayMs: get<number>("retry.baseDelayMs")!,
      maxDelayMs: get<number>("retry.maxDelayMs")!,
      maxRetryAfterMs: get<number>("retry.maxRetryAfterMs")!,
    },
    progress: get<boolean>("progress")!,
    allowUnconfinedScripts: get<boolean>("allowUnconfinedScripts")!,
    idleTimeoutMs: get<number>("idleTimeoutMs")!,
    contextWindow: get<number>("contextWindow")!,
    modelQuirks: {
      maxTokensField: get<ModelQuirks["maxTokensField"]>("quirks.maxTokensField")!,
      streamOptions: get<boolean>("quirks.streamOptions")!,
      sendReasoning: get<boolean>("quirks.sendReasoning")!,
    },
    sandbox: i.files.at(-1)?.settings?.sandbox ?? {},
    ...(customInstructions === undefined ? {} : { customInstructions }),
  };
  sources.cwd ??= "default";
  return { ok: true, settings, sources };
}

type Connection =
  | { ok: true; baseURL: string; apiKey: string; apiKeyEnv: string; model: string; head: Layer[] }
  | { ok: false; message: string; noServer?: true };

/** Server, key and model: they decide which model entries apply. */
function connection(i: MergeInputs, sources: SettingSources): Connection {
  const files = i.files.flatMap((f) => f.settings ? [settingsLayer(f)] : []);
  const keyEnvLayers = [...files, defaults({ apiKeyEnv: DEFAULT_API_KEY_ENV })];
  const apiKeyEnv = pick<string>(keyEnvLayers, "apiKeyEnv", sources)!;
  const head: Layer[] = [
    { source: "flag", values: { ...i.flags } },
    envLayer(i.env, "OPENAI_BASE_URL", "baseUrl"),
    envLayer(i.env, "MINOC_MODEL", "model"),
    envLayer(i.env, apiKeyEnv, "apiKey"),
  ];
  const early = [...head, ...files];
  // A key file named in settings beats the environment variable, never a flag.
  const keyFiles = i.files.flatMap((f) =>
    f.apiKey ? [{ source: `${f.settingsPath} apiKeyFile`, values: { apiKey: f.apiKey } }] : []
  );
  const key = pick<string>([head[0], ...keyFiles, ...early.slice(1)], "apiKey", sources);
  const url = pick<string>(early, "baseUrl", sources);
  if (!key && !url) return { ok: false, message: noServer(apiKeyEnv), noServer: true };
  const baseURL = (url ?? OPENAI_BASE_URL).replace(/\/+$/, "");
  sources.baseUrl ??= "default";
  if (!/^https?:\/\/[^/\s]+/i.test(baseURL)) {
    return {
      ok: false,
      message: `Invalid base URL "${url}": expected an http:// or https:// URL ` +
        'such as "http://localhost:11434/v1"',
    };
  }
  const fallback = baseURL === OPENAI_BASE_URL ? DEFAULT_OPENAI_MODEL : undefined;
  const model = pick<string>([...early, defaults({ model: fallback })], "model", sources);
  if (!model) {
    return {
      ok: false,
      message: `No model named for "${baseURL}": set --model or MINOC_MODEL ` +
        '(for example "llama3.1" on Ollama)',
    };
  }
  return { ok: true, baseURL, apiKey: key ?? "", apiKeyEnv, model, head };
}

/** The first layer that sets `field` wins; its source is recorded. */
function pick<T extends Value>(
  layers: readonly Layer[],
  field: string,
  sources: SettingSources,
): T | undefined {
  for (const layer of layers) {
    const value = layer.values[field];
    if (value === undefined) continue;
    sources[field] = layer.source;
    return value as T;
  }
  return undefined;
}

function noServer(keyEnv: string): string {
  return `No model server configured: set ${keyEnv} (or --api-key) for OpenAI, ` +
    "or --base-url / OPENAI_BASE_URL for a compatible server such as Ollama " +
    '("http://localhost:11434/v1"), together with --model or MINOC_MODEL';
}

function envLayer(env: MergeInputs["env"], name: string, field: string): Layer {
  const raw = env[name];
  const value = raw && raw.trim() !== "" ? raw.trim() : undefined;
  return { source: `env ${name}`, values: { [field]: value } };
}

function settingsLayer(f: FileLayer): Layer {
  const { retry, $schema: _, apiKeyFile: _file, sandbox: _sandbox, ...rest } = f.settings ?? {};
  const values: Layer["values"] = { ...rest };
  for (const [k, v] of Object.entries(retry ?? {})) values[`retry.${k}`] = v;
  return { source: f.settingsPath, values };
}

function modelLayer(path: string, entry: ModelEntry): Layer {
  const { quirks, ...rest } = entry;
  const values: Layer["values"] = { ...rest };
  for (const [k, v] of Object.entries(quirks ?? {})) values[`quirks.${k}`] = v;
  return { source: path, values };
}

/** A folder's layers: the model's own entry first, then the general settings. */
function fileLayersOf(f: FileLayer, model: string): Layer[] {
  const entry = f.models && Object.hasOwn(f.models, model) ? f.models[model] : undefined;
  return [
    ...(entry ? [modelLayer(f.modelsPath, entry)] : []),
    ...(f.settings ? [settingsLayer(f)] : []),
  ];
}

function defaults(values: Layer["values"]): Layer {
  return { source: "default", values };
}

function defaultsFor(model: string): Layer {
  const quirks = defaultQuirks(model);
  return defaults({
    maxTurns: DEFAULT_MAX_TURNS,
    progress: true,
    allowUnconfinedScripts: false,
    idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
    contextWindow: DEFAULT_CONTEXT_WINDOW,
    "retry.maxRetries": DEFAULT_RETRY_POLICY.maxRetries,
    "retry.baseDelayMs": DEFAULT_RETRY_POLICY.baseDelayMs,
    "retry.maxDelayMs": DEFAULT_RETRY_POLICY.maxDelayMs,
    "retry.maxRetryAfterMs": DEFAULT_RETRY_POLICY.maxRetryAfterMs,
    "quirks.maxTokensField": quirks.maxTokensField,
    "quirks.streamOptions": quirks.streamOptions,
    "quirks.sendReasoning": quirks.sendReasoning,
  });
}
