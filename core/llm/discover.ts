/**
 * Finds OpenAI-compatible servers on the usual local ports: every port is
 * asked `GET /v1/models` at once, and the whole search ends within one
 * budget (300 ms by default), so a machine with nothing listening pays at
 * most that. Chat models are listed before embedding, rerank and speech
 * models, which cannot hold a conversation.
 *
 * `MINOC_DISCOVER_PORTS` replaces the port list: `"11434,1234"`, or
 * `"none"` to look nowhere (tests point it at a scripted server).
 *
 * @example
 * ```ts
 * const ports = discoverPorts(Deno.env.toObject());
 * if (ports.ok) {
 *   const found = await discoverServers({ ports: ports.ports });
 *   const first = chatCandidates(found)[0]; // { server, model } or undefined
 * }
 * ```
 * @module
 */
import { fetchServerModels } from "./server_models.ts";

/** A port to look at and the servers that usually listen there. */
export interface KnownPort {
  port: number;
  label: string;
}

/** The usual ports of local model servers. */
export const KNOWN_PORTS: readonly KnownPort[] = Object.freeze([
  { port: 11434, label: "Ollama" },
  { port: 1234, label: "LM Studio" },
  { port: 8080, label: "llama.cpp or LocalAI" },
  { port: 8000, label: "vLLM" },
  { port: 1337, label: "Jan" },
  { port: 5000, label: "text-generation-webui" },
]);

/** The environment variable that replaces {@link KNOWN_PORTS}. */
export const DISCOVER_PORTS_ENV = "MINOC_DISCOVER_PORTS";

/** The longest the whole search may take. */
export const DISCOVER_BUDGET_MS = 300;

/** A server that answered with its model list. */
export interface FoundServer {
  label: string;
  port: number;
  /** e.g. `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  /** Every model id it lists, chat models first. */
  models: string[];
}

/** One server and one of its chat models. */
export interface Candidate {
  server: FoundServer;
  model: string;
}

/** The ports to look at: {@link KNOWN_PORTS}, or the list `MINOC_DISCOVER_PORTS` gives. */
export function discoverPorts(
  env: Record<string, string | undefined>,
): { ok: true; ports: KnownPort[] } | { ok: false; message: string } {
  const raw = env[DISCOVER_PORTS_ENV]?.trim();
  if (raw === undefined || raw === "") return { ok: true, ports: [...KNOWN_PORTS] };
  if (/^(none|off|0)$/i.test(raw)) return { ok: true, ports: [] };
  const ports: KnownPort[] = [];
  for (const part of raw.split(",").map((p) => p.trim()).filter(Boolean)) {
    const n = Number(part);
    if (!/^\d+$/.test(part) || n < 1 || n > 65535) {
      return {
        ok: false,
        message: `Invalid ${DISCOVER_PORTS_ENV} "${raw}": expected port numbers ` +
          `separated by commas such as "11434,1234", or "none" (got "${part}")`,
      };
    }
    ports.push({ port: n, label: KNOWN_PORTS.find((k) => k.port === n)?.label ?? "a server" });
  }
  return { ok: true, ports };
}

/** Options of {@link discoverServers}. */
export interface DiscoverOptions {
  ports: readonly KnownPort[];
  /** Total time allowed (default {@link DISCOVER_BUDGET_MS}). */
  budgetMs?: number;
  /** Host to look on (default 127.0.0.1). */
  host?: string;
}

/**
 * Asks every port for its models at once and returns the servers that
 * answered with a model list, in the order of `ports`. Never throws and
 * never takes longer than the budget.
 */
export async function discoverServers(o: DiscoverOptions): Promise<FoundServer[]> {
  if (o.ports.length === 0) return [];
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), o.budgetMs ?? DISCOVER_BUDGET_MS);
  try {
    const host = o.host ?? "127.0.0.1";
    const answers = await Promise.all(o.ports.map(async ({ port, label }) => {
      const baseURL = `http://${host}:${port}/v1`;
      const r = await fetchServerModels({ baseURL, apiKey: "", signal: budget.signal });
      return r.ok && r.models.length > 0
        ? { label, port, baseURL, models: rankModels(r.models) }
        : null;
    }));
    return answers.filter((a) => a !== null);
  } finally {
    clearTimeout(timer);
  }
}

const NOT_CHAT = /(embed|embedding|bge-|\be5-|minilm|rerank|whisper|tts|text-to-speech|clip\b)/i;

/** Whether a model id names a chat model (not an embedding, rerank or speech one). */
export function isChatModel(id: string): boolean {
  return !NOT_CHAT.test(id);
}

/** Chat models first, each group in its original order. */
export function rankModels(ids: readonly string[]): string[] {
  return [...ids.filter(isChatModel), ...ids.filter((id) => !isChatModel(id))];
}

/** Every server's chat models, servers in order; embedding-only servers give none. */
export function chatCandidates(found: readonly FoundServer[]): Candidate[] {
  return found.flatMap((server) =>
    server.models.filter(isChatModel).map((model) => ({ server, model }))
  );
}
