/**
 * What compaction needs to know about messages: the context budget, the
 * loop's dependencies it uses, and what kind each message is (system prompt,
 * instruction, tool output, reply, summary). Shared by `context.ts` and
 * `context_summary.ts`.
 *
 * @example
 * ```ts
 * classify({ role: "user", content: "[read_file a.ts] Result:\n…" }, 3);
 * // { kind: "output", fileKey: "read_file a.ts" }
 * ```
 * @module
 */
import type { AgentEvent, ChatMessage, LlmProvider } from "../../interfaces/agent.ts";
import type { SessionRecorder } from "../../interfaces/history.ts";

/** How much context the model has, and when to compact. */
export interface ContextBudget {
  /** Tokens the model can take in (settings `contextWindow`). */
  window: number;
  /** Compact when the conversation takes more than this share of the window (default 0.8). */
  compactAt?: number;
  /** Share of the window to aim for when compacting (default 0.6). */
  target?: number;
  /** Messages at the end that are never shortened or summarised (default 4; at most 2 on demand). */
  keepRecent?: number;
}

/** What compacting needs: the loop's dependencies satisfy it. */
export interface ContextDeps {
  provider: LlmProvider;
  recorder: SessionRecorder;
  emit(event: AgentEvent): void;
  context?: ContextBudget;
}

/** What a message is, for compaction. */
export interface MessageInfo {
  kind: "system" | "instruction" | "output" | "assistant" | "summary";
  /** For outputs of file-reading tools: the call (`read_file src/a.ts`); the latest one is kept. */
  fileKey?: string;
}

/** Tools whose output is a file's content. */
const FILE_TOOLS = new Set(["read_file", "read_files"]);
const RESULT_HEADER = /^\[([^\n]+?)\] (?:Result|Error(?: \([^)\n]*\))?):\n/;
const FEEDBACK_HEADER = /^Tool call error \(/;

const summaries = new WeakSet<ChatMessage>();

/** Marks a message as a compaction summary (so it is not taken for an instruction). */
export function markSummary(message: ChatMessage): void {
  summaries.add(message);
}

/** Classifies one message: tool outputs and feedback are recognised by their headers. */
export function classify(message: ChatMessage, index: number): MessageInfo {
  if (index === 0 && message.role === "system") return { kind: "system" };
  if (message.role === "assistant") return { kind: "assistant" };
  if (message.role === "system") return { kind: "system" };
  if (summaries.has(message)) return { kind: "summary" };
  const header = RESULT_HEADER.exec(message.content);
  if (header) {
    const tool = header[1].split(" ")[0];
    return FILE_TOOLS.has(tool) ? { kind: "output", fileKey: header[1] } : { kind: "output" };
  }
  if (FEEDBACK_HEADER.test(message.content)) return { kind: "output" };
  return { kind: "instruction" };
}

/** Index of the latest output for each file key. */
export function latestFiles(infos: readonly MessageInfo[]): Map<string, number> {
  const latest = new Map<string, number>();
  infos.forEach((info, i) => {
    if (info.fileKey !== undefined) latest.set(info.fileKey, i);
  });
  return latest;
}
