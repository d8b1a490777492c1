/**
 * A scripted OpenAI-compatible HTTP server on 127.0.0.1 for tests, benchmarks
 * and manual runs: `POST /v1/chat/completions` (SSE or plain JSON) serves the
 * scripted replies in order, `GET /v1/models` lists models, and every request
 * is recorded. Failures are injected per reply (status codes with
 * Retry-After, dropped connections, slow chunks).
 *
 * @example
 * ```ts
 * await using server = await startServer({ replies: [{ text: "Hello there" }] });
 * const client = new OpenAI({ baseURL: server.baseUrl, apiKey: "k", maxRetries: 0 });
 * ```
 *
 * From a shell: `deno run -A tests/support/server.ts --script replies.json [--port N] [--loop]`
 * prints the base URL on its first line and serves until killed.
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  DroppedConnection,
  errorResponse,
  jsonCompletion,
  type LiveStream,
  type ReplyContext,
  retryHeaders,
  type ScriptedReply,
  sseBody,
  sseEvents,
  wait,
} from "./server_replies.ts";

export type { ScriptedReply } from "./server_replies.ts";

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  /** URL path, e.g. `/v1/chat/completions`. */
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** Parsed JSON body, or null when there is none or it is not JSON. */
  // deno-lint-ignore no-explicit-any
  body: any;
  /** When the request arrived (ms since the epoch, fractional). */
  receivedAt: number;
  /** When the server finished sending the reply (streams: after the last event). */
  finishedAt?: number;
  /** The client's port: requests on one connection share it. */
  remotePort?: number;
}

/** A running test server. */
export interface TestServer extends AsyncDisposable {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  readonly baseUrl: string;
  /** Every request received so far, failed ones included. */
  readonly requests: RecordedRequest[];
  /** Appends replies to the script. */
  push(...replies: ScriptedReply[]): void;
  /** Stops live streams and shuts the server down. */
  close(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** The script: replies served in order to chat completion requests. */
  replies?: ScriptedReply[];
  /** Model ids listed by `GET /v1/models` (default `["test-model"]`). */
  models?: string[];
  /** When set, requests with another bearer key get 401. */
  apiKey?: string;
  /** Port to listen on (default 0: any free port). */
  port?: number;
  /** Start the script again when it is used up, instead of answering 500. */
  loop?: boolean;
  /** Called with one line per request, e.g. for a terminal log. */
  log?: (line: string) => void;
}

/** One call in minoc's XML form, as a model writes it (a scripted reply's text). */
export function toolCall(tool: string, params: Record<string, string>): string {
  const body = Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join("\n");
  return `<tool_call>\n<${tool}>\n${body}\n</${tool}>\n</tool_call>`;
}

/** Starts the scripted server on 127.0.0.1 and resolves once it listens. */
export function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const script = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const live = new Set<LiveStream>();
  const state = { next: 0, served: 0 };

  const handler = async (req: Request, info: Deno.ServeHandlerInfo): Promise<Response> => {
    const url = new URL(req.url);
    const receivedAt = performance.timeOrigin + performance.now();
    const recorded = await record(req, url, receivedAt);
    const addr = info.remoteAddr as Deno.Addr;
    if (addr.transport === "tcp") recorded.remotePort = addr.port;
    requests.push(recorded);
    const response = await route(recorded);
    options.log?.(`${recorded.method} ${recorded.path} -> ${response.status}`);
    return response;
  };

  const route = (r: RecordedRequest): Response | Promise<Response> => {
    if (options.apiKey !== undefined && r.headers["authorization"] !== `Bearer ${options.apiKey}`) {
      return errorResponse(401, "Incorrect API key provided");
    }
    if (r.path === "/v1/models" && r.method === "GET") return modelsResponse(options.models);
    if (r.path === "/v1/chat/completions" && r.method === "POST") return chat(r);
    return errorResponse(404, `Unknown endpoint "${r.method} ${r.path}"`);
  };

  const chat = async (r: RecordedRequest): Promise<Response> => {
    if (options.loop && state.next >= script.length) state.next = 0;
    const reply = script[state.next];
    if (!reply) {
      return errorResponse(
        500,
        `Test server script is exhausted: no reply left for request ${requests.length}`,
      );
    }
    if (reply.rejectStreamOptions && r.body?.stream_options !== undefined) {
      return errorResponse(400, "stream_options is not supported");
    }
    state.next++;
    state.served++;
    if (reply.delayMs) await wait(reply.delayMs, live);
    if (reply.status !== undefined) {
      return errorResponse(reply.status, reply.errorMessage, retryHeaders(reply));
    }
    const ctx = replyContext(r, state.served);
    if (r.body?.stream !== true) {
      r.finishedAt = performance.timeOrigin + performance.now();
      return jsonCompletion(reply, ctx);
    }
    const events = sseEvents(reply, ctx);
    const body = sseBody(events, {
      delayMs: reply.chunkDelayMs,
      drop: reply.dropAfterChunks !== undefined,
      live,
      onClose: () => r.finishedAt = performance.timeOrigin + performance.now(),
    });
    return new Response(body, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  };

  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: options.port ?? 0,
      handler,
      onListen: () => {},
      onError: (error) => {
        if (!(error instanceof DroppedConnection)) console.error("Test server error:", error);
        return errorResponse(500, "Test server failed while answering");
      },
    });
    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        for (const stream of live) stream.stop();
        await server.shutdown();
      })();
      return closing;
    };
    resolve({
      baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
      requests,
      push: (...replies) => void script.push(...replies),
      close,
      [Symbol.asyncDispose]: close,
    });
  });
}

async function record(req: Request, url: URL, receivedAt: number): Promise<RecordedRequest> {
  const text = await req.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return {
    method: req.method,
    path: url.pathname,
    headers: Object.fromEntries(req.headers),
    body,
    receivedAt,
  };
}

function replyContext(r: RecordedRequest, serial: number): ReplyContext {
  const messages: unknown[] = Array.isArray(r.body?.messages) ? r.body.messages : [];
  const promptChars = messages.reduce<number>((sum, m) => {
    const content = (m as { content?: unknown })?.content;
    return sum + (typeof content === "string" ? content.length : 0);
  }, 0);
  return {
    serial,
    model: typeof r.body?.model === "string" ? r.body.model : "test-model",
    promptChars,
    includeUsage: r.body?.stream_options?.include_usage === true,
  };
}

function modelsResponse(models: string[] = ["test-model"]): Response {
  return Response.json({
    object: "list",
    data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "minoc-test" })),
  });
}

/** Reads a script file: an array of replies, or `{ replies, models, apiKey }`. */
export async function readScript(path: string): Promise<ServerOptions> {
  const parsed = JSON.parse(await Deno.readTextFile(path));
  if (Array.isArray(parsed)) return { replies: parsed };
  if (parsed && typeof parsed === "object" && Array.isArray(parsed.replies)) {
    return { replies: parsed.replies, models: parsed.models, apiKey: parsed.apiKey };
  }
  throw new Error(
    `Cannot read script "${path}": expected an array of replies or { "replies": [] }`,
  );
}

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      script: { type: "string" },
      port: { type: "string" },
      loop: { type: "boolean" },
      quiet: { type: "boolean" },
    },
  });
  if (!values.script) {
    console.error("Usage: server.ts --script replies.json [--port N] [--loop] [--quiet]");
    return 2;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Invalid port "${values.port}": expected an integer from 0 to 65535`);
    return 2;
  }
  const script = await readScript(values.script);
  const log = values.quiet ? undefined : (line: string) => console.error(line);
  const server = await startServer({ ...script, port, loop: values.loop, log });
  console.log(server.baseUrl);
  return 0;
}

if (import.meta.main) {
  main(Deno.args).then(
    (code) => void (Deno.exitCode = code),
    (error) => {
      console.error(error instanceof Error ? error.message : String(error));
      Deno.exitCode = 2;
    },
  );
}
