/**
 * The provider for any OpenAI-compatible server (OpenAI, Ollama, LM Studio,
 * vLLM, llama.cpp, …): streamed chat completions through the `openai` client,
 * which makes each request; the reply's stream is read from the response it
 * returns by `chat_chunks.ts`.
 *
 * The client is imported on the first request, so commands that never talk to
 * a model stay fast. The SDK's own retries are off; retry policy is a decorator
 * elsewhere. The stream never throws: every failure becomes a final `end` event.
 *
 * @example
 * ```ts
 * const provider = createOpenAIProvider({
 *   baseURL: "http://localhost:11434/v1",
 *   apiKey: "",
 *   params: { model: "qwen3", temperature: 0.2 },
 * });
 * for await (const ev of provider.stream({ messages: [{ role: "user", content: "hi" }] })) {
 *   if (ev.type === "text") console.log(ev.text);
 * }
 * ```
 *
 * @module
 */
import type OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { VERSION as SDK_VERSION } from "openai/version";
import type {
  ChatMessage,
  ChatRequest,
  LlmProvider,
  ModelParams,
  ProviderError,
  StreamEvent,
} from "../../interfaces/agent.ts";
import { boundedFetch } from "./bounded_body.ts";
import { ChatChunks } from "./chat_chunks.ts";
import { classifyError, rejectsStreamOptions } from "./errors.ts";
import { IdleTimer } from "./idle_timer.ts";
import { nextTask } from "./next_task.ts";
import { pinnedFetch } from "./pinned_fetch.ts";
import { BodyEncoder, JSON_HEADERS } from "./request_body.ts";
import { tappedFetch, type WireSink } from "./wire.ts";

/** Options of {@link createOpenAIProvider}. */
export interface OpenAIProviderOptions {
  /** Base URL including the version path, e.g. `https://api.openai.com/v1`. */
  baseURL: string;
  /** API key; empty sends no Authorization header (local servers). */
  apiKey: string;
  params: ModelParams;
  /**
   * Longest wait for the response headers, and for each next chunk once the
   * reply streams. Default: the client's 10 minutes for headers, no chunk limit.
   */
  timeoutMs?: number;
  /** Model quirks: the body field for `maxTokens` (default `max_tokens`). */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** False for servers that reject `stream_options` (default true). */
  streamOptions?: boolean;
  /** Told every HTTP request and response exactly as sent and received (debug mode). */
  wire?: WireSink;
}

interface ProviderState {
  readonly options: OpenAIProviderOptions;
  /** False once the server has rejected `stream_options`. */
  includeUsage: boolean;
  client?: OpenAI;
  /** Told when the client hands the current request to `fetch`. */
  onSend?: () => void;
  /** Builds each request's bytes from what the last one sent (see request_body.ts). */
  readonly bodies: BodyEncoder;
}

/** What the stream has shown so far. */
interface Progress {
  text: boolean;
  finish: string | null;
  /** Whether the usage figures came. */
  usage: boolean;
}

/** Creates a provider that streams replies from an OpenAI-compatible server. */
export function createOpenAIProvider(options: OpenAIProviderOptions): LlmProvider {
  const state: ProviderState = {
    options,
    includeUsage: options.streamOptions !== false,
    bodies: new BodyEncoder(),
  };
  return {
    name: "openai",
    model: options.params.model,
    endpoint: options.baseURL,
    stream: (request) => streamReply(state, request),
  };
}

async function* streamReply(
  state: ProviderState,
  request: ChatRequest,
): AsyncGenerator<StreamEvent> {
  const signal = request.signal;
  if (signal?.aborted) {
    yield { type: "end", reason: "aborted" };
    return;
  }
  const idle = new IdleTimer(state.options.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal;
  const progress: Progress = { text: false, finish: null, usage: false };
  try {
    let sent = () => {};
    const out = new Promise<boolean>((resolve) => sent = () => resolve(true));
    state.onSend = sent;
    const opening = openStream(state, request.messages, combined);
    if (await Promise.race([out, opening.then(() => true, () => false)])) yield { type: "open" };
    state.onSend = undefined;
    const chunks = new ChatChunks(await opening);
    try {
      idle.arm();
      for (let batch; (batch = await chunks.next()) !== null;) {
        const ended = progress.finish !== null;
        const counted = progress.usage;
        const events = batch.flatMap((chunk) => chunkEvents(chunk, progress));
        // Only news counts as data: the model's output, or the reply's end and usage the first
        // time. A server sending empty chunks (or the same usage) for ever is as stalled as a
        // silent one, and the timer keeps running through them.
        const news = events.some(isOutput) || (!ended && progress.finish !== null) ||
          (!counted && progress.usage);
        if (!news) {
          for (const event of events) yield event;
          continue;
        }
        idle.disarm();
        for (const event of events) yield event;
        idle.arm();
      }
    } finally {
      chunks.close();
    }
  } catch (e) {
    if (signal?.aborted) yield { type: "end", reason: "aborted" };
    else if (idle.fired) yield failure(idleTimeout(state), progress);
    else yield failure(classifyError(e, errorContext(state)), progress);
    return;
  } finally {
    idle.stop();
  }
  yield finalEvent(state, progress, signal, idle);
}

async function openStream(
  state: ProviderState,
  messages: ChatMessage[],
  signal: AbortSignal,
): Promise<Response> {
  const client = await clientOf(state);
  const create = async (includeUsage: boolean) => {
    await nextTask(); // the last reply's connection goes back to the pool: this request reuses it
    const { params, bytes } = state.bodies.body(state.options, messages, includeUsage);
    // The body goes as its prepared bytes (see request_body.ts); `params` tells the client it
    // streams. Once the request has settled, `fetch` has copied the bytes: the buffer is free.
    try {
      return await client.chat.completions.create(params, {
        body: bytes,
        headers: JSON_HEADERS,
        signal,
        maxRetries: 0,
      }).asResponse();
    } finally {
      state.bodies.release();
    }
  };
  if (!state.includeUsage) return await create(false);
  try {
    return await create(true);
  } catch (e) {
    if (signal.aborted || !rejectsStreamOptions(e)) throw e;
    state.includeUsage = false;
    return await create(false);
  }
}

/** The client alone: the package's index adds the Azure and Bedrock clients and helpers. */
let sdk: Promise<typeof import("openai/client")> | undefined;

async function clientOf(state: ProviderState): Promise<OpenAI> {
  if (state.client) return state.client;
  sdk ??= import("openai/client");
  const { OpenAI: OpenAIClient } = await sdk;
  const { baseURL, apiKey, timeoutMs, wire } = state.options;
  state.client = new OpenAIClient({
    fetch: pinnedFetch(baseURL, sending(state, boundedFetch(wire ? tappedFetch(wire) : fetch))),
    baseURL,
    apiKey: apiKey || "unused",
    maxRetries: 0,
    ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
    defaultHeaders: {
      // The client's own User-Agent, set here: it takes its class's name, which the bundle
      // minifies (it would say "D/JS").
      "User-Agent": `OpenAI/JS ${SDK_VERSION}`,
      // No key: send no Authorization header at all (Ollama, LM Studio, llama.cpp).
      ...(apiKey ? {} : { Authorization: null }),
      ...NO_PLATFORM,
    },
  });
  return state.client;
}

/**
 * The client's platform headers, set to none: the operating system, the
 * architecture and the runtime's version are not the server's business, and
 * Deno checks every header of every request (bench/NOTES.md).
 */
const NO_PLATFORM = {
  "X-Stainless-Lang": null,
  "X-Stainless-Package-Version": null,
  "X-Stainless-OS": null,
  "X-Stainless-Arch": null,
  "X-Stainless-Runtime": null,
  "X-Stainless-Runtime-Version": null,
  "X-Stainless-Retry-Count": null,
  "X-Stainless-Timeout": null,
};

/** `inner`, telling the provider's state when a request is handed to it. */
function sending(state: ProviderState, inner: typeof fetch): typeof fetch {
  return (input, init) => {
    const response = inner(input, init);
    state.onSend?.();
    return response;
  };
}

/** Whether an event is the model's output (text or reasoning). */
function isOutput(event: StreamEvent): boolean {
  return event.type === "text" || event.type === "reasoning";
}

function chunkEvents(chunk: ChatCompletionChunk, progress: Progress): StreamEvent[] {
  const events: StreamEvent[] = [];
  const choice = chunk.choices?.[0];
  const reasoning = reasoningOf(choice?.delta);
  if (reasoning) events.push({ type: "reasoning", text: reasoning });
  const text = choice?.delta?.content;
  if (text) {
    progress.text = true;
    events.push({ type: "text", text });
  }
  if (choice?.finish_reason) progress.finish = choice.finish_reason;
  const usage = chunk.usage;
  if (usage) {
    progress.usage = true;
    events.push({
      type: "usage",
      usage: {
        promptTokens: usage.prompt_tokens ?? 0,
        completionTokens: usage.completion_tokens ?? 0,
        totalTokens: usage.total_tokens ?? (usage.prompt_tokens ?? 0) +
            (usage.completion_tokens ?? 0),
      },
    });
  }
  return events;
}

/** Reasoning sent apart from the text: `reasoning_content` (DeepSeek, vLLM) or `reasoning` (Ollama, OpenRouter). */
function reasoningOf(delta: unknown): string {
  const d = delta as { reasoning_content?: unknown; reasoning?: unknown } | undefined;
  const r = d?.reasoning_content ?? d?.reasoning;
  return typeof r === "string" ? r : "";
}

function finalEvent(
  state: ProviderState,
  progress: Progress,
  signal: AbortSignal | undefined,
  idle: IdleTimer,
): StreamEvent {
  if (signal?.aborted) return { type: "end", reason: "aborted" };
  if (idle.fired) return failure(idleTimeout(state), progress);
  if (progress.finish === null) {
    const message = `Connection to ${state.options.baseURL} closed before the reply finished`;
    return failure({ kind: "network", message }, progress);
  }
  return { type: "end", reason: progress.finish === "length" ? "length" : "stop" };
}

function failure(error: ProviderError, progress: Progress): StreamEvent {
  return { type: "end", reason: "error", error: { ...error, afterText: progress.text } };
}

function idleTimeout(state: ProviderState): ProviderError {
  const { baseURL, timeoutMs } = state.options;
  return { kind: "timeout", message: `No data from ${baseURL} for ${timeoutMs} ms` };
}

function errorContext(state: ProviderState) {
  return { baseURL: state.options.baseURL, model: state.options.params.model };
}
