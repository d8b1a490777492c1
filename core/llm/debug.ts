/**
 * A decorator that writes every request to a provider and every response in
 * full to the debug log (LogTape category `["minoc", "debug", "llm"]`, i.e.
 * `debug.log`): the request's method, URL, headers (the API key is never
 * written, only `Bearer [REDACTED]`) and body exactly as the HTTP client sent
 * them (through the provider's wire tap, see wire.ts; rebuilt from the
 * settings when there is no HTTP request, e.g. the bridge), the status and
 * headers of the server's answer, and the response's text, usage, stop
 * reason, error, time to first token and total time. Put it inside the retry
 * decorator so that each attempt is logged.
 *
 * It is only installed in debug mode, so normal runs pay nothing for it.
 *
 * @example
 * ```ts
 * const provider = withRetry(withDebugLog(createProvider(config), { params, hasKey }), policy);
 * ```
 * @module
 */
import { getLogger, type Logger } from "@logtape/logtape";
import type {
  ChatRequest,
  LlmProvider,
  ModelParams,
  StreamEvent,
  Usage,
} from "../../interfaces/agent.ts";
import { REDACTED } from "../history/redact.ts";
import { debugWritingMs, writeRaw } from "../history/debug_write.ts";
import { decorateProvider } from "./decorate.ts";
import type { WireEvent, WireTap } from "./wire.ts";

/** What the log says about the request besides its messages. */
export interface DebugLogOptions {
  /** Sampling parameters sent with every request. */
  params: ModelParams;
  /** Whether an API key is sent; the key itself is never written. */
  hasKey: boolean;
  /**
   * The provider's wire tap: each HTTP request is then logged as sent
   * (`request N`), with the status and headers of its response (`status N`).
   * Without it, or when no HTTP request was made, the request is rebuilt.
   */
  tap?: WireTap;
}

/** The LogTape category of the request and response records. */
export const LLM_DEBUG_CATEGORY = ["minoc", "debug", "llm"] as const;

/** Wraps `provider` so each request and response is written to the debug log. */
export function withDebugLog(provider: LlmProvider, options: DebugLogOptions): LlmProvider {
  const log = getLogger([...LLM_DEBUG_CATEGORY]);
  let seq = 0;
  return decorateProvider(provider, (request) => logged(provider, options, log, ++seq, request));
}

async function* logged(
  provider: LlmProvider,
  options: DebugLogOptions,
  log: Logger,
  id: number,
  request: ChatRequest,
): AsyncGenerator<StreamEvent> {
  let sent = 0;
  const wired = (e: WireEvent) => {
    if (e.type === "request") sent++;
    // A second HTTP request in one turn: the retry without `stream_options`.
    const name = `${e.type === "request" ? "request" : "status"} ${id}${
      sent > 1 ? `.${sent}` : ""
    }`;
    writeRaw(log, `${name} ${JSON.stringify(wireRecord(e))}`);
  };
  if (options.tap) options.tap.listen(wired);
  else writeRaw(log, `request ${id} ${JSON.stringify(requestRecord(provider, options, request))}`);
  const started = performance.now();
  const parts: string[] = [];
  let firstTokenMs: number | undefined;
  let usage: Usage | undefined;
  let end: Extract<StreamEvent, { type: "end" }> | undefined;
  try {
    for await (const ev of provider.stream(request)) {
      if (ev.type === "text") {
        firstTokenMs ??= performance.now() - started;
        parts.push(ev.text);
      } else if (ev.type === "usage") usage = ev.usage;
      else if (ev.type === "end") end = ev;
      yield ev;
    }
  } finally {
    options.tap?.listen(null);
    if (options.tap && sent === 0) {
      writeRaw(log, `request ${id} ${JSON.stringify(requestRecord(provider, options, request))}`);
    }
    const record = {
      ms: round(performance.now() - started),
      firstTokenMs: firstTokenMs === undefined ? null : round(firstTokenMs),
      chunks: parts.length,
      reason: end?.reason ?? (request.signal?.aborted ? "aborted" : "unfinished"),
      ...(end?.error ? { error: end.error } : {}),
      ...(usage ? { usage } : {}),
      text: parts.join(""),
    };
    writeRaw(log, `response ${id} ${JSON.stringify(record)}`);
  }
}

/** A wire event as logged: a JSON body is shown parsed. */
function wireRecord(e: WireEvent) {
  if (e.type === "response") return { status: e.status, ms: e.ms, headers: e.headers };
  let body: unknown = e.body;
  try {
    body = JSON.parse(e.body);
  } catch {
    // not JSON: shown as text
  }
  return { method: e.method, url: e.url, headers: e.headers, body };
}

/** The request rebuilt from minoc's settings (no HTTP request was seen): URL, headers, body. */
function requestRecord(provider: LlmProvider, o: DebugLogOptions, request: ChatRequest) {
  const p = o.params;
  const body: Record<string, unknown> = {
    model: p.model,
    messages: request.messages,
    stream: true,
  };
  if (p.temperature !== undefined) body.temperature = p.temperature;
  if (p.topP !== undefined) body.top_p = p.topP;
  if (p.topK !== undefined) body.top_k = p.topK;
  if (p.maxTokens !== undefined) body.max_tokens = p.maxTokens;
  return {
    method: "POST",
    url: `${provider.endpoint.replace(/\/+$/, "")}/chat/completions`,
    headers: {
      "content-type": "application/json",
      ...(o.hasKey ? { authorization: `Bearer ${REDACTED}` } : {}),
    },
    body,
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

export { debugWritingMs, writeRaw };
