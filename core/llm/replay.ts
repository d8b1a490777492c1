/**
 * A provider that serves recorded or scripted replies in order, with no
 * network: `minoc replay`, in-process tests and demos. Its fixture files are
 * also the scripts of the end-to-end tests' HTTP server
 * (`tests/support/server.ts` `readScript`), so one fixture drives both.
 *
 * ## The fixture format
 *
 * A JSON file holding one of:
 *
 * - an array of replies, served in order:
 *   ```json
 *   [
 *     { "text": "<tool_call>\n<read_file>\n<path>notes.md</path>\n</read_file>\n</tool_call>" },
 *     { "chunks": ["All ", "done."], "usage": { "prompt_tokens": 120, "completion_tokens": 3 } }
 *   ]
 *   ```
 *   A reply has `text` (or `chunks`, streamed one event each), optional
 *   `usage` (`prompt_tokens`/`completion_tokens`, as the scripted test
 *   server's `ScriptedReply`), optional `finishReason` (`"length"` ends the
 *   stream that way) and optional `error` (`{ "kind": "server", "message":
 *   "…" }`: the reply ends with that provider error after its text). A file
 *   written for the test server (`tests/support/server.ts`) works as it is;
 *   its other fields are ignored.
 * - `{ "replies": [ … ] }`, the same array wrapped (the server's script file).
 * - a session file (`.minoc/history/sessions/…/session_<ID>.json`): its
 *   assistant messages are served in order, with their recorded usage.
 *
 * When the replies are used up, the stream ends with an error saying so.
 *
 * @example
 * ```ts
 * const provider = replayProvider([{ text: "Hello" }], { model: "fixture" });
 * for await (const ev of provider.stream({ messages: [{ role: "user", content: "hi" }] })) {
 *   if (ev.type === "text") console.log(ev.text);
 * }
 * ```
 * @module
 */
import type {
  ChatMessage,
  ChatRequest,
  LlmProvider,
  ProviderError,
  ProviderErrorKind,
  StreamEvent,
  Usage,
} from "../../interfaces/agent.ts";
import type { SessionFile } from "../../interfaces/history.ts";

/** One reply of a replay script. */
export interface ReplayReply {
  text?: string;
  /** Explicit chunks (override `text`). */
  chunks?: string[];
  /** Token counts to report (server style, or as recorded in a session). */
  usage?: { prompt_tokens: number; completion_tokens: number } | Usage;
  /** `"length"` ends the stream with that reason; anything else is `stop`. */
  finishReason?: string;
  /** End the reply with this provider error (after its text). */
  error?: { kind?: ProviderErrorKind; message: string };
}

/** Options of {@link replayProvider}. */
export interface ReplayOptions {
  /** The model name the provider reports (default `replay`). */
  model?: string;
  /** Where the replies come from, for messages (default `replay`). */
  endpoint?: string;
}

/** A replay provider; `requests` holds the messages of every request it served. */
export interface ReplayProvider extends LlmProvider {
  readonly requests: ChatMessage[][];
  /** Replies not served yet. */
  remaining(): number;
}

/** Serves `replies` in order, one per request. */
export function replayProvider(
  replies: readonly ReplayReply[] | (() => Promise<ReplayReply[]>),
  o: ReplayOptions = {},
): ReplayProvider {
  const requests: ChatMessage[][] = [];
  let script: readonly ReplayReply[] | undefined = Array.isArray(replies) ? replies : undefined;
  let loadError: string | undefined;
  let next = 0;
  const load = async () => {
    if (script !== undefined || loadError !== undefined) return;
    try {
      script = await (replies as () => Promise<ReplayReply[]>)();
    } catch (error) {
      loadError = (error as Error).message;
    }
  };
  return {
    name: "replay",
    model: o.model ?? "replay",
    endpoint: o.endpoint ?? "replay",
    requests,
    remaining: () => Math.max(0, (script?.length ?? 0) - next),
    async *stream(request: ChatRequest): AsyncIterable<StreamEvent> {
      requests.push(request.messages.map((m) => ({ ...m })));
      await load();
      if (loadError !== undefined) {
        yield end("error", { kind: "bad_request", message: loadError });
        return;
      }
      const reply = script![next];
      if (reply === undefined) {
        const message = `Replay script "${o.endpoint ?? "replay"}" is exhausted: ` +
          `no reply left for request ${requests.length}`;
        yield end("error", { kind: "unknown", message });
        return;
      }
      next++;
      yield* serve(reply, request.signal);
    },
  };
}

async function* serve(reply: ReplayReply, signal?: AbortSignal): AsyncIterable<StreamEvent> {
  const chunks = reply.chunks ?? (reply.text === undefined ? [] : [reply.text]);
  for (const text of chunks) {
    if (signal?.aborted) {
      yield end("aborted");
      return;
    }
    if (text !== "") yield { type: "text", text };
    await Promise.resolve();
  }
  const usage = usageOf(reply.usage);
  if (usage) yield { type: "usage", usage };
  if (reply.error) {
    const error: ProviderError = {
      kind: reply.error.kind ?? "unknown",
      message: reply.error.message,
      ...(chunks.length ? { afterText: true } : {}),
    };
    yield end("error", error);
    return;
  }
  yield end(reply.finishReason === "length" ? "length" : "stop");
}

function end(reason: "stop" | "length" | "error" | "aborted", error?: ProviderError): StreamEvent {
  return error ? { type: "end", reason, error } : { type: "end", reason };
}

function usageOf(u: ReplayReply["usage"]): Usage | undefined {
  if (!u) return undefined;
  if ("promptTokens" in u) return { ...u };
  const promptTokens = u.prompt_tokens;
  const completionTokens = u.completion_tokens;
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

/** The replies of a recorded session: its assistant messages, in order. */
export function repliesFromSession(session: SessionFile): ReplayReply[] {
  return session.messages
    .filter((m) => m.role === "assistant")
    .map((m) => (m.usage ? { text: m.content, usage: m.usage } : { text: m.content }));
}

/** Reads replies from fixture text (see the module documentation); throws when it holds none. */
export function parseReplies(text: string, name = "replies"): ReplayReply[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`Cannot read replay script "${name}": ${(error as Error).message}`);
  }
  if (Array.isArray(value)) return value.map((r, i) => checkReply(r, name, i));
  if (isRecord(value) && Array.isArray(value.replies)) {
    return value.replies.map((r, i) => checkReply(r, name, i));
  }
  if (isRecord(value) && Array.isArray(value.messages) && typeof value.sessionId === "string") {
    return repliesFromSession(value as unknown as SessionFile);
  }
  throw new Error(
    `Cannot read replay script "${name}": expected an array of replies, { "replies": [] } ` +
      "or a session file",
  );
}

/** Reads a fixture file (see the module documentation). */
export async function loadReplies(path: string): Promise<ReplayReply[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new Error(`Cannot read replay script "${path}": ${(error as Error).message}`);
  }
  return parseReplies(text, path);
}

function checkReply(value: unknown, name: string, i: number): ReplayReply {
  const ok = isRecord(value) &&
    (value.text === undefined || typeof value.text === "string") &&
    (value.chunks === undefined ||
      (Array.isArray(value.chunks) && value.chunks.every((c) => typeof c === "string")));
  if (!ok) {
    throw new Error(
      `Cannot read replay script "${name}": reply ${i + 1} must be an object with "text" ` +
        'or "chunks" strings',
    );
  }
  return value as ReplayReply;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
