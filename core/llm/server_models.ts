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

/**
 * Asks `GET <baseURL>/models` for the model ids (sorted). A server without
 * that endpoint, or with a broken answer, gives `ok: false` and a message.
 */
export async function fetchServerModels(o: ServerModelsOptions): Promise<ServerModels> {
  const url = `${o.baseURL.replace(/\/+$/, "")}/models`;
  const timeout = AbortSignal.timeout(o.timeoutMs ?? 10_000);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: o.apiKey ? { Authorization: `Bearer ${o.apiKey}` } : {},
      signal,
    });
  } catch (e) {
    const why = timeout.aborted ? "no answer in time" : (e as Error).message;
    return { ok: false, message: `Cannot list models at "${url}": ${why}` };
  }
  if (!response.ok) {
    await response.body?.cancel();
    const hint = response.status === 404 ? ": the server does not list its models" : "";
    return { ok: false, message: `Cannot list models at "${url}" (${response.status})${hint}` };
  }
  const body = await response.json().catch(() => null) as { data?: unknown } | null;
  const data = Array.isArray(body?.data) ? body.data : null;
  if (data === null) {
    return { ok: false, message: `Cannot list models at "${url}": expected {"data": [...]}` };
  }
  const ids = data.map((m) => (m as { id?: unknown })?.id).filter((id) => typeof id === "string");
  return { ok: true, models: [...new Set(ids as string[])].sort() };
}
