/**
 * Context management: keeps the model-visible conversation inside the
 * model's context window. Near the limit, older tool outputs are shortened
 * first (the latest content of each file read and every user instruction are
 * kept); if that is not enough, older turns are summarised by the model (one
 * extra request). Only the in-memory conversation changes: the session file
 * keeps the full record, plus a `compacted` system event.
 *
 * @example
 * ```ts
 * // before each request (the loop does this):
 * await fitContext(deps, convo, signal);
 * // on demand (/compact):
 * const report = await compactContext(deps, convo, signal);
 * ```
 * @module
 */
import type { ChatMessage } from "../../interfaces/agent.ts";
import {
  classify,
  type ContextBudget,
  type ContextDeps,
  latestFiles,
  markSummary,
} from "./context_kinds.ts";
import { summariseRegion } from "./context_summary.ts";
import { charCount, countMessage, countMessages } from "./tokens.ts";

const DEFAULT_WINDOW = 128_000;
const shortenedSet = new WeakSet<ChatMessage>();

export type { ContextBudget };

/** The conversation as the model sees it; the system prompt comes first. */
export interface MessageList {
  messages: ChatMessage[];
}

/** What a compaction did; tokens are estimated (`core/llm/token_estimate.ts`). */
export interface CompactReport {
  before: number;
  after: number;
  /** Tool outputs shortened. */
  shortened: number;
  /** Messages replaced by the summary. */
  summarised: number;
  /** The model's summary, when turns were summarised. */
  summary?: string;
}

/**
 * Compacts when the conversation is near the window; does nothing (and
 * returns null) otherwise. Call before every request.
 */
export async function fitContext(
  deps: ContextDeps,
  convo: MessageList,
  signal: AbortSignal,
): Promise<CompactReport | null> {
  const budget = deps.context;
  if (!budget) return null;
  const limit = Math.floor(budget.window * (budget.compactAt ?? 0.8));
  // Every token is at least one character: a short conversation needs no count.
  if (charCount(convo.messages) <= limit) return null;
  if (await countMessages(convo.messages) <= limit) return null;
  return await compactContext(deps, convo, signal, { force: false });
}

/**
 * Compacts now. With `force` (the default, for `/compact`) every older tool
 * output is shortened and older turns are summarised whatever the size;
 * without it, each step stops once the conversation fits the target.
 */
export async function compactContext(
  deps: ContextDeps,
  convo: MessageList,
  signal: AbortSignal,
  o: { force: boolean } = { force: true },
): Promise<CompactReport> {
  const budget = deps.context ?? { window: DEFAULT_WINDOW };
  const target = Math.floor(budget.window * (budget.target ?? 0.6));
  const messages = convo.messages;
  const before = await countMessages(messages);
  // On demand, only the last exchange stays as it is.
  const keepRecent = o.force ? Math.min(budget.keepRecent ?? 4, 2) : budget.keepRecent ?? 4;
  const tailStart = Math.max(1, messages.length - keepRecent);
  let used = before;
  let shortened = 0;
  const infos = messages.map(classify);
  const latest = latestFiles(infos);
  for (let i = 1; i < tailStart && (o.force || used > target); i++) {
    if (infos[i].kind !== "output" || latest.get(infos[i].fileKey ?? "") === i) continue;
    const next = shortenOutput(messages[i]);
    if (!next) continue;
    used += (await countMessage(next)) - (await countMessage(messages[i]));
    messages[i] = next;
    shortened++;
  }
  let summarised = 0;
  let summary: string | undefined;
  if (o.force || used > target) {
    const r = await summariseRegion(deps, messages, {
      tailStart,
      target,
      minTokens: o.force ? 0 : Math.floor(budget.window * 0.1),
      signal,
    });
    if (r) {
      markSummary(r.block);
      messages.splice(1, r.end - 1, r.block, r.ack);
      summarised = r.replaced;
      summary = r.summary;
      used = await countMessages(messages);
    }
  }
  const report = { before, after: used, shortened, summarised, summary };
  if (shortened + summarised > 0) await announce(deps, report);
  return report;
}

async function announce(deps: ContextDeps, r: CompactReport): Promise<void> {
  const line = `Context compacted: ${r.before} → ${r.after} tokens ` +
    `(${r.shortened} tool outputs shortened, ${r.summarised} messages summarised)`;
  await deps.recorder.append({
    role: "system",
    content: r.summary ? `${line}\n\nSummary:\n${r.summary}` : line,
    event: "compacted",
  });
  const m = deps.recorder.snapshot().metadata;
  const count = typeof m.compactions === "number" ? m.compactions : 0;
  await deps.recorder.update({ compactions: count + 1 });
  deps.emit({
    type: "compacted",
    before: r.before,
    after: r.after,
    shortened: r.shortened,
    summarised: r.summarised,
  });
}

/** Lines of a shortened output kept from its start and its end. */
const KEEP_HEAD = 8;
const KEEP_TAIL = 4;
const MAX_LINE = 200;

/**
 * A shortened copy of a tool output: its header, first and last lines, and a
 * note saying how much was left out. Null when shortening would not help.
 */
export function shortenOutput(message: ChatMessage): ChatMessage | null {
  if (shortenedSet.has(message) || message.content.length < 600) return null;
  const lines = message.content.split("\n");
  const cap = (l: string) => l.length > MAX_LINE ? l.slice(0, MAX_LINE) + " …" : l;
  const head = lines.slice(0, 1 + KEEP_HEAD).map(cap);
  const tail = lines.length > 1 + KEEP_HEAD + KEEP_TAIL ? lines.slice(-KEEP_TAIL).map(cap) : [];
  const dropped = lines.length - head.length - tail.length;
  const note = `[… ${dropped > 0 ? `${dropped} lines` : "long lines"} of this output were ` +
    "removed to save context; call the tool again if you need them]";
  const content = [...head, note, ...tail].join("\n");
  if (content.length >= message.content.length) return null;
  const next: ChatMessage = { role: message.role, content };
  shortenedSet.add(next);
  return next;
}
