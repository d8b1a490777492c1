/**
 * The models an OpenAI-compatible server offers: `GET <baseURL>/models`,
 * used by `/model`, `minoc setup` and the search for local servers.
 *
 * @example
 * ```ts
 * const r = await fetchServerModels({ baseURL: "http://127.0.0.1:11434/v1", apiKey: "" });
 * if (r.ok) console.log(r.models);
 * ```
 * @module
 */
import { MODELS_BODY_MAX_BYTES, readBodyText } from "./response_body.ts";

/** Where to ask for the model list. */
export interface ServerModelsOptions {
  /** Base URL including the version path, e.g. `http://localhost:11434/v1`. */
  baseURL: string;
  /** Sent as a bearer token when not empty. */
  apiKey: string;
  signal?: AbortSignal;
  /** Longest wait for the answer (default 10 s). */
  timeoutMs?: number;
}

/** The model ids a server offers, or why it could not say. */
export type ServerModels = { ok: true; models: string[] } | { ok: false; message: string };

/** The server's answer: its model ids (sorted), or the HTTP status (when one came) and why not. */
export type ModelsAnswer =
  | { ok: true; models: string[] }
  | { ok: false; status?: number; error: string };

/**
 * Asks `GET <baseURL>/models`. A failed answer's error is `HTTP <status>:
 * <its body on one line>`; no answer's is why (`no answer in time`, …).
 */
export async function askModels(o: ServerModelsOptions): Promise<ModelsAnswer> {
  const url = modelsURL(o.baseURL);
  const timeout = AbortSignal.timeout(o.timeoutMs ?? 10_000);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  const why = (e: unknown) => timeout.aborted ? "no answer in time" : (e as Error).message;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: o.apiKey ? { Authorization: `Bearer ${o.apiKey}` } : {},
      signal,
    });
  } catch (e) {
    return { ok: false, error: why(e) };
  }
  const status = response.status;
  let text: string;
  try {
    text = await readBodyText(response, MODELS_BODY_MAX_BYTES);
  } catch (e) {
    return { ok: false, status, error: why(e) };
  }
  if (!response.ok) return { ok: false, status, error: `HTTP ${status}: ${oneLine(text)}` };
  let body: { data?: unknown } | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    // reported below
  }
  const data = Array.isArray(body?.data) ? body.data : null;
  if (data === null) return { ok: false, status, error: 'expected {"data": [...]}' };
  const ids = data.map((m) => (m as { id?: unknown })?.id).filter((id) => typeof id === "string");
  return { ok: true, models: [...new Set(ids as string[])].sort() };
}

/**
 * {@link askModels} with one message for the user: a server without that
 * endpoint, or with a broken answer, gives `ok: false` and says which.
 */
export async function fetchServerModels(o: ServerModelsOptions): Promise<ServerModels> {
  const url = modelsURL(o.baseURL);
  const r = await askModels(o);
  if (r.ok) return r;
  // An error status says enough; without one (no answer, or a broken one) the reason does.
  if (r.status !== undefined && (r.status < 200 || r.status > 299)) {
    const hint = r.status === 404 ? ": the server does not list its models" : "";
    return { ok: false, message: `Cannot list models at "${url}" (${r.status})${hint}` };
  }
  return { ok: false, message: `Cannot list models at "${url}": ${r.error}` };
}

function modelsURL(baseURL: string): string {
  return `${baseURL.replace(/\/+$/, "")}/models`;
}

/** A body on one line, at most 120 characters. */
export function oneLine(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > 120 ? `${one.slice(0, 119)}…` : one || "(empty)";
}
