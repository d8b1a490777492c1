/**
 * Per-model knowledge: the request quirks a model needs (which field carries
 * the token limit, whether `stream_options` may be sent), and saving a
 * chosen model as the default (the server's list is `core/llm/server_models.ts`).
 *
 * @example
 * ```ts
 * defaultQuirks("o4-mini"); // { maxTokensField: "max_completion_tokens", streamOptions: true }
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import { type MAX_TOKENS_FIELDS, parseConfigText } from "./schema.ts";
import { readTextFile } from "../tools/bounded_read.ts";

/** How requests to one model differ from the plain OpenAI shape. */
export interface ModelQuirks {
  /** The body field that carries `maxTokens`. */
  maxTokensField: (typeof MAX_TOKENS_FIELDS)[number];
  /** False when the server rejects `stream_options: { include_usage: true }`. */
  streamOptions: boolean;
  /** True to send the model's reasoning back in later turns (default: it is left out). */
  sendReasoning: boolean;
}

/**
 * The quirks a model has when models.json says nothing: OpenAI's reasoning
 * models (`o1`, `o3`, `o4-mini`, `gpt-5` …) take `max_completion_tokens`.
 */
export function defaultQuirks(model: string): ModelQuirks {
  const reasoning = /(^|\/)(o\d|gpt-5)/i.test(model);
  return {
    maxTokensField: reasoning ? "max_completion_tokens" : "max_tokens",
    streamOptions: true,
    sendReasoning: false,
  };
}

/**
 * Sets `model` in the settings.json at `path` (created when absent), keeping
 * every other field. A broken file is reported and left untouched; the
 * write replaces the file atomically.
 */
export async function saveDefaultModel(
  path: string,
  model: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (model.trim() === "") {
    return { ok: false, message: `Invalid model name "${model}": expected a name` };
  }
  let text: string | undefined;
  try {
    text = await readTextFile(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) {
      return { ok: false, message: `Cannot read config "${path}": ${(e as Error).message}` };
    }
  }
  let current: Record<string, unknown> = {};
  if (text !== undefined) {
    const parsed = parseConfigText(text, path, "settings");
    if (!parsed.ok) return { ok: false, message: parsed.problems[0] };
    current = JSON.parse(text.replace(/^\uFEFF/, ""));
  }
  const next = { ...current, model };
  const tmp = join(dirname(path), `.settings.json.${crypto.randomUUID()}.tmp`);
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(tmp, JSON.stringify(next, null, 2) + "\n");
    await Deno.rename(tmp, path);
    return { ok: true };
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    return { ok: false, message: `Cannot write config "${path}": ${(e as Error).message}` };
  }
}
