/**
 * The checks of `minoc doctor`, each a value with a verdict: the server's
 * model list, a short probe that asks for one tool call (parsed? how fast?
 * streamed? usage reported?), and a long prompt of known length with a
 * marker at its start, to catch a context window smaller than configured
 * (the server's prompt_tokens against our count, and whether the model can
 * repeat the marker).
 *
 * @module
 */
import type { LlmProvider, Usage } from "../../interfaces/agent.ts";
import type { ToolSpec } from "../../interfaces/tool.ts";
import { CallScanner, parseReply } from "../../core/protocol/xml.ts";
import { renderProtocolRules, renderToolDocs } from "../../core/protocol/tool_docs.ts";
import { attemptCompletion } from "../../core/tools/attempt_completion.ts";
import { readFile } from "../../core/tools/read_file.ts";
import { askModels, oneLine } from "../../core/llm/server_models.ts";
import type { CountTokens } from "../../core/agent/project_render.ts";

/** How one check came out. */
export type Verdict = "pass" | "warn" | "fail" | "skip";

/** One line of the report. */
export interface Check {
  name: string;
  verdict: Verdict;
  detail: string;
}

/** What one streamed request showed. */
export interface Probe {
  text: string;
  /** Reasoning that came in a delta field (`reasoning_content` / `reasoning`). */
  reasoning?: string;
  chunks: number;
  usage?: Usage;
  firstMs: number | null;
  ms: number;
  error?: string;
}

/** Sends `messages` and records how the reply arrived. */
export async function probe(
  provider: LlmProvider,
  messages: { role: "system" | "user"; content: string }[],
): Promise<Probe> {
  const start = performance.now();
  const out: Probe = { text: "", chunks: 0, firstMs: null, ms: 0 };
  for await (const ev of provider.stream({ messages })) {
    if (ev.type === "text") {
      out.firstMs ??= performance.now() - start;
      out.chunks++;
      out.text += ev.text;
    } else if (ev.type === "usage") out.usage = ev.usage;
    else if (ev.type === "reasoning") out.reasoning = (out.reasoning ?? "") + ev.text;
    else if (ev.type === "end" && ev.error) out.error = ev.error.message;
  }
  out.ms = performance.now() - start;
  return out;
}

/** `GET <base>/models`: the model ids, or why they could not be listed. */
export async function listModels(
  baseURL: string,
  apiKey: string,
): Promise<
  { ok: true; ids: string[]; ms: number } | { ok: false; status?: number; error: string }
> {
  const start = performance.now();
  const r = await askModels({ baseURL, apiKey, timeoutMs: 15_000 });
  return r.ok ? { ok: true, ids: r.models, ms: performance.now() - start } : r;
}

const PROBE_TOOLS = [readFile, attemptCompletion];

/** Which tool-call dialect the probed model answered in. */
function dialectCheck(parsed: ReturnType<typeof parseReply>): Check {
  const name = "dialect";
  if (parsed.kind === "none") return { name, verdict: "skip", detail: "no call to judge" };
  const d = parsed.dialect ?? "canonical";
  if (d === "canonical") {
    return { name, verdict: "pass", detail: "the model wrote minoc's own form" };
  }
  return {
    name,
    verdict: "warn",
    detail:
      `the model wrote the "${d}" format: minoc reads it and reminds the model once per session`,
  };
}

/** Where the probed model's reasoning arrives. */
function reasoningCheck(p: Probe): Check {
  const name = "reasoning";
  const scanner = new CallScanner([]);
  scanner.push(p.text);
  scanner.finish();
  const inText = scanner.reasoning().length;
  const field = p.reasoning?.length ?? 0;
  if (field > 0) {
    return { name, verdict: "pass", detail: `in a separate delta field (${field} characters)` };
  }
  if (inText > 0) {
    return { name, verdict: "pass", detail: `in <think> tags in the text (${inText} characters)` };
  }
  return { name, verdict: "skip", detail: "the reply had no reasoning" };
}

/** The tool-call probe: a short prompt that asks for exactly one read_file call. */
export function toolCallMessages() {
  return [
    {
      role: "system" as const,
      content: `You are a coding agent.\n\n${renderProtocolRules()}\n\n${
        renderToolDocs(PROBE_TOOLS)
      }`,
    },
    {
      role: "user" as const,
      content: "Read the file README.md. Reply with the tool call only.",
    },
  ];
}

/** Verdicts of the tool-call probe: the call, streaming, usage. */
export function judgeToolCall(p: Probe): Check[] {
  if (p.error) return [{ name: "tool call", verdict: "fail", detail: p.error }];
  const parsed = parseReply(p.text, PROBE_TOOLS as readonly ToolSpec[]);
  const took = `in ${secs(p.ms)} (first text after ${secs(p.firstMs ?? p.ms)})`;
  const call: Check = parsed.kind === "call" && parsed.call.tool === "read_file"
    ? { name: "tool call", verdict: "pass", detail: `parsed read_file ${took}` }
    : parsed.kind === "call"
    ? {
      name: "tool call",
      verdict: "warn",
      detail: `parsed, but called ${parsed.call.tool} ${took}`,
    }
    : parsed.kind === "error"
    ? { name: "tool call", verdict: "fail", detail: `malformed call (${parsed.error}) ${took}` }
    : {
      name: "tool call",
      verdict: "fail",
      detail: `no tool call in the reply ${took}: ${oneLine(p.text)}`,
    };
  const streaming: Check = p.chunks > 1
    ? { name: "streaming", verdict: "pass", detail: `the reply came in ${p.chunks} chunks` }
    : p.chunks === 1
    ? {
      name: "streaming",
      verdict: "warn",
      detail: "the reply came in one piece: the server may buffer it",
    }
    : { name: "streaming", verdict: "fail", detail: "the reply had no text" };
  const usage: Check = p.usage
    ? {
      name: "usage",
      verdict: "pass",
      detail:
        `the server reports tokens (prompt ${p.usage.promptTokens}, completion ${p.usage.completionTokens})`,
    }
    : {
      name: "usage",
      verdict: "warn",
      detail: "the server reports no token usage: minoc estimates token counts",
    };
  return [call, dialectCheck(parsed), reasoningCheck(p), streaming, usage];
}

/** The marker the long prompt starts with. */
export const MARKER = "PLUM-4821";

const WORDS = ("the river keeps a quiet record of every stone it has moved and every bank it " +
  "has shaped over a thousand slow years while the town above it changes its names").split(" ");

/** A prompt of about `tokens` tokens with the marker at its very start. */
export function longPrompt(
  tokens: number,
  count: CountTokens,
): { content: string; tokens: number } {
  const head = `Remember this code: ${MARKER}. You will be asked for it at the end.\n\n`;
  const tail = "\n\nWhat was the code given at the very start? Reply with the code only.";
  const lines: string[] = [];
  const line = (i: number) =>
    `${i}. ` + Array.from({ length: 12 }, (_, k) =>
      WORDS[(i * 7 + k * 3) % WORDS.length]).join(" ") +
    ".";
  const perLine = count(line(1) + "\n");
  for (let i = 1; i <= Math.max(1, Math.floor(tokens / perLine)); i++) lines.push(line(i));
  const content = head + lines.join("\n") + tail;
  return { content, tokens: count(content) };
}

/** Verdict of the long-prompt probe. */
export function judgeContext(p: Probe, sent: number, window: number): Check {
  const name = "context";
  if (p.error) {
    return { name, verdict: "fail", detail: `a ${fmt(sent)}-token prompt failed: ${p.error}` };
  }
  const echoed = p.text.includes(MARKER);
  const counted = p.usage?.promptTokens;
  const ratio = counted === undefined ? null : counted / sent;
  const server = counted === undefined ? "" : `; the server counted ${fmt(counted)} prompt tokens`;
  if (ratio !== null && ratio < 0.6) {
    return {
      name,
      verdict: "fail",
      detail:
        `the prompt was cut: ${fmt(sent)} tokens sent, the server counted ${fmt(counted!)}. ` +
        `The model's context window is probably about ${fmt(counted!)} tokens, not the ` +
        `${
          fmt(window)
        } configured: raise it on the server (e.g. Ollama num_ctx) or set contextWindow`,
    };
  }
  if (!echoed) {
    return {
      name,
      verdict: ratio === null ? "fail" : "warn",
      detail: `the model did not repeat the code from the start of a ${fmt(sent)}-token prompt` +
        (ratio === null ? ": the prompt was probably cut (context window too small?)" : server),
    };
  }
  return {
    name,
    verdict: "pass",
    detail: `a ${fmt(sent)}-token prompt came back whole: the model repeated the code${server}`,
  };
}

/** Seconds or milliseconds, whichever reads better. */
export function secs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function fmt(n: number): string {
  return n.toLocaleString("en-US");
}
