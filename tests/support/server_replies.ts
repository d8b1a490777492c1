/**
 * Response builders of the scripted test server: OpenAI-style error bodies,
 * plain JSON completions and SSE streams in the exact OpenAI wire format.
 *
 * @module
 */

/** One scripted answer of the test server to a chat completion request. */
export interface ScriptedReply {
  /** Assistant text; streamed as SSE chunks when the request has `stream: true`, else plain JSON. */
  text?: string;
  /** Explicit chunking of the text (overrides automatic splitting into words). */
  chunks?: string[];
  /** Delay before every chunk after the first. */
  chunkDelayMs?: number;
  /** Failure injection: answer with this HTTP status and an OpenAI-style error body. */
  status?: number;
  /** Message of the error body (a default per status otherwise). */
  errorMessage?: string;
  /** Sent as the `Retry-After` header. */
  retryAfter?: string;
  /** Sent as the `retry-after-ms` header. */
  retryAfterMs?: number;
  /** Stream this many text chunks, then destroy the connection (0: right after the headers). */
  dropAfterChunks?: number;
  /** Token counts to report; `false` sends no usage even when asked. Estimated when absent. */
  usage?: { prompt_tokens: number; completion_tokens: number } | false;
  /**
   * Answer 400 "stream_options is not supported" when the request has `stream_options`.
   * The reply is not used up by that rejection: the next request without them gets it.
   */
  rejectStreamOptions?: boolean;
  /** Finish reason of the last chunk (default "stop"). */
  finishReason?: string;
  /** Wait this long before answering at all (before the status line and headers). */
  delayMs?: number;
  /** Reasoning chunks sent first, in this delta field (as DeepSeek, vLLM and Ollama do). */
  reasoning?: { field: "reasoning_content" | "reasoning"; chunks: string[] };
}

/** What every response builder needs to know about the request. */
export interface ReplyContext {
  /** Sequence number of the completion, for its id. */
  serial: number;
  model: string;
  /** Characters of all request messages, for the usage estimate. */
  promptChars: number;
  includeUsage: boolean;
}

/** Thrown into a response stream on purpose to cut the connection. */
export class DroppedConnection extends Error {
  constructor() {
    super("Test server dropped the connection on purpose");
  }
}

/** A live SSE stream the server can stop when it closes. */
export interface LiveStream {
  stop(): void;
}

const DEFAULT_MESSAGES: Record<number, string> = {
  400: "Bad request",
  401: "Incorrect API key provided",
  403: "You are not allowed to use this model",
  404: "The model does not exist or you do not have access to it",
  408: "Request timed out",
  422: "Unprocessable entity",
  429: "Rate limit reached for requests",
  500: "The server had an error while processing your request",
  502: "Bad gateway",
  503: "The engine is currently overloaded, please try again later",
};

/** Waits `ms`, or less when the server stops first. */
export function wait(ms: number, live: Set<LiveStream>): Promise<void> {
  return new Promise((resolve) => {
    const entry: LiveStream = { stop: done };
    const timer = setTimeout(done, ms);
    live.add(entry);
    function done() {
      clearTimeout(timer);
      live.delete(entry);
      resolve();
    }
  });
}

/** An OpenAI-style error response: `{"error":{"message","type","param","code"}}`. */
export function errorResponse(
  status: number,
  message?: string,
  headers: Record<string, string> = {},
): Response {
  const type = status === 429
    ? "rate_limit_error"
    : status >= 500
    ? "server_error"
    : status === 401
    ? "authentication_error"
    : "invalid_request_error";
  const code = status === 401 ? "invalid_api_key" : status === 404 ? "model_not_found" : null;
  const error = {
    message: message ?? DEFAULT_MESSAGES[status] ?? `Scripted error ${status}`,
    type,
    param: null,
    code,
  };
  return Response.json({ error }, { status, headers });
}

/** The headers a scripted failure sends (`Retry-After`, `retry-after-ms`). */
export function retryHeaders(reply: ScriptedReply): Record<string, string> {
  const headers: Record<string, string> = {};
  if (reply.retryAfter !== undefined) headers["retry-after"] = reply.retryAfter;
  if (reply.retryAfterMs !== undefined) headers["retry-after-ms"] = String(reply.retryAfterMs);
  return headers;
}

/** The text pieces a reply streams: explicit chunks, or the text split after each word. */
export function splitChunks(reply: ScriptedReply): string[] {
  if (reply.chunks) return reply.chunks;
  return (reply.text ?? "").match(/\S+\s*|\s+/g) ?? [];
}

function usageOf(reply: ScriptedReply, ctx: ReplyContext, text: string) {
  if (reply.usage === false) return undefined;
  const counts = reply.usage ?? {
    prompt_tokens: Math.ceil(ctx.promptChars / 4),
    completion_tokens: Math.ceil(text.length / 4),
  };
  return { ...counts, total_tokens: counts.prompt_tokens + counts.completion_tokens };
}

/** A non-streaming `chat.completion` JSON response. */
export function jsonCompletion(reply: ScriptedReply, ctx: ReplyContext): Response {
  const text = reply.text ?? (reply.chunks ?? []).join("");
  const usage = usageOf(reply, ctx, text);
  return Response.json({
    id: `chatcmpl-test-${ctx.serial}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: ctx.model,
    choices: [{
      index: 0,
      message: { role: "assistant", content: text, refusal: null },
      logprobs: null,
      finish_reason: reply.finishReason ?? "stop",
    }],
    ...(usage ? { usage } : {}),
  });
}

/** The `data:` payloads of one streamed reply, in order, ending with `[DONE]`. */
export function sseEvents(reply: ScriptedReply, ctx: ReplyContext): string[] {
  const pieces = splitChunks(reply);
  const base = {
    id: `chatcmpl-test-${ctx.serial}`,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: ctx.model,
  };
  const extra = ctx.includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    JSON.stringify({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...extra,
    });
  const thoughts = (reply.reasoning?.chunks ?? []).map((r) =>
    chunk({ [reply.reasoning!.field]: r, content: null }, null)
  );
  const events = [
    ...thoughts,
    ...(pieces.length ? pieces : [""]).map((content, i) =>
      chunk(i === 0 ? { role: "assistant", content } : { content }, null)
    ),
  ];
  if (reply.dropAfterChunks !== undefined) return events.slice(0, reply.dropAfterChunks);
  events.push(chunk({}, reply.finishReason ?? "stop"));
  const usage = ctx.includeUsage ? usageOf(reply, ctx, pieces.join("")) : undefined;
  if (usage) events.push(JSON.stringify({ ...base, choices: [], usage }));
  events.push("[DONE]");
  return events;
}

/**
 * An SSE body that sends `events` (waiting `delayMs` between them) and then
 * closes, or errors when `drop` is set so the client sees a broken connection.
 * The stream registers itself in `live` until it ends, so the server can stop it.
 */
export function sseBody(
  events: string[],
  options: { delayMs?: number; drop: boolean; live: Set<LiveStream>; onClose?: () => void },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  let stopped = false;
  const entry: LiveStream = {
    stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
    },
  };
  options.live.add(entry);
  const finish = () => options.live.delete(entry);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index > 0 && index < events.length && options.delayMs) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, options.delayMs);
        });
      }
      if (stopped || index >= events.length) {
        finish();
        if (stopped || options.drop) controller.error(new DroppedConnection());
        else {
          options.onClose?.();
          controller.close();
        }
        return;
      }
      controller.enqueue(encoder.encode(`data: ${events[index++]}\n\n`));
    },
    cancel() {
      entry.stop();
      finish();
    },
  });
}
