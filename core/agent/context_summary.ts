/**
 * The second step of context management: older turns replaced by a summary
 * the model writes (one extra request), with every user instruction and the
 * latest content of each file read kept verbatim beside it.
 *
 * @module
 */
import type { ChatMessage, Usage } from "../../interfaces/agent.ts";
import { classify, type ContextDeps, latestFiles } from "./context_kinds.ts";
import { countMessage, countMessages, countText } from "./tokens.ts";

/** What a summarised region turns into. */
export interface SummarisedRegion {
  /** The user message holding the summary, the instructions and the files. */
  block: ChatMessage;
  /** The assistant's acknowledgement that follows it (keeps roles alternating). */
  ack: ChatMessage;
  /** Index of the first message kept after the region. */
  end: number;
  /** How many messages the region had. */
  replaced: number;
  summary: string;
}

/** Where to cut and how much room there is. */
export interface RegionOptions {
  /** Messages from here on are kept as they are. */
  tailStart: number;
  /** Tokens the whole conversation should fit in. */
  target: number;
  /** Leave a region with less new material than this alone (avoids a summary per turn). */
  minTokens: number;
  signal: AbortSignal;
}

/** What a summary block carries forward, for the next summary. */
interface Carried {
  instructions: string[];
  files: Map<string, ChatMessage>;
}

const carried = new WeakMap<ChatMessage, Carried>();

/** The instructions to the model for the extra request. */
export const SUMMARY_PROMPT = `You summarise the earlier part of a coding session between a ` +
  `user and a coding agent, so the agent can continue with less context. Write a concise ` +
  `summary in bullet points: what the user asked; what was done (files read, created or ` +
  `changed, commands run and their results); decisions, findings and open problems; what was ` +
  `about to happen next. Name files, functions and commands exactly. Do not call any tool and ` +
  `do not add anything else: answer with the summary only.`;

const HEADER = "[Earlier conversation, compacted by minoc to save context]";
const ACK = "Understood. I have the summary, your instructions and the files above, " +
  "and I continue from there.";

/**
 * Summarises `messages[1 .. cut)` where `cut` is the last user message at or
 * before `tailStart`. Null when there is nothing worth summarising.
 */
export async function summariseRegion(
  deps: ContextDeps,
  messages: readonly ChatMessage[],
  o: RegionOptions,
): Promise<SummarisedRegion | null> {
  let end = -1;
  for (let i = Math.min(o.tailStart, messages.length - 1); i > 1; i--) {
    if (messages[i].role === "user") {
      end = i;
      break;
    }
  }
  const region = messages.slice(1, end);
  if (end < 0 || region.length < 2 || (region.length === 2 && carried.has(region[0]))) {
    return null;
  }
  // Only what came after the last summary counts: a large kept block alone is no reason.
  const fresh = region.filter((m) => !carried.has(m) && m.content !== ACK);
  if (o.minTokens > 0 && await countMessages(fresh) < o.minTokens) return null;
  const keep = keptFromRegion(region, messages.slice(end));
  const answer = await askSummary(deps, transcript(region, deps.context?.window), o.signal);
  const summary = answer.text ?? `(The model could not write a summary: ${answer.error})`;
  const calls = region.flatMap((m, i) => toolHeader(m, i));
  const fixed = await countMessages([messages[0], ...messages.slice(end)]);
  const room = o.target - fixed - (await countText(ACK)) - 8;
  const block = await buildBlock(summary, calls, keep, room);
  carried.set(block, keep);
  return { block, ack: { role: "assistant", content: ACK }, end, replaced: region.length, summary };
}

/** The instructions and latest file outputs a region holds (older summaries included). */
function keptFromRegion(region: readonly ChatMessage[], tail: readonly ChatMessage[]): Carried {
  const instructions: string[] = [];
  const files = new Map<string, ChatMessage>();
  const infos = region.map((m) => classify(m, 1));
  const tailKeys = new Set(tail.map((m) => classify(m, 1).fileKey).filter(Boolean));
  region.forEach((m, i) => {
    const earlier = carried.get(m);
    if (earlier) {
      instructions.push(...earlier.instructions);
      for (const [k, v] of earlier.files) files.set(k, v);
    } else if (infos[i].kind === "instruction") instructions.push(m.content);
  });
  for (const [key, i] of latestFiles(infos)) files.set(key, region[i]);
  for (const key of tailKeys) files.delete(key!);
  return { instructions, files };
}

async function askSummary(
  deps: ContextDeps,
  text: string,
  signal: AbortSignal,
): Promise<{ text?: string; error?: string }> {
  deps.emit({ type: "waiting", model: deps.provider.model, task: "summarising the conversation" });
  const messages: ChatMessage[] = [
    { role: "system", content: SUMMARY_PROMPT },
    { role: "user", content: `${text}\n\nWrite the summary now.` },
  ];
  const parts: string[] = [];
  let usage: Usage | undefined;
  let error: string | undefined;
  for await (const ev of deps.provider.stream({ messages, signal })) {
    if (ev.type === "text") parts.push(ev.text);
    else if (ev.type === "usage") usage = ev.usage;
    else if (ev.type === "reasoning" || ev.type === "open") continue;
    else if (ev.reason === "error") error = ev.error?.message ?? "the request failed";
    else if (ev.reason === "aborted") error = "cancelled";
  }
  if (signal.aborted) error = "cancelled";
  await addUsage(deps, usage);
  const summary = parts.join("").trim();
  if (error !== undefined || summary === "") return { error: error ?? "an empty reply" };
  return { text: summary };
}

async function addUsage(deps: ContextDeps, usage: Usage | undefined): Promise<void> {
  if (!usage) return;
  const m = deps.recorder.snapshot().metadata;
  await deps.recorder.update({
    promptTokens: m.promptTokens + usage.promptTokens,
    completionTokens: m.completionTokens + usage.completionTokens,
    totalTokens: m.totalTokens + usage.totalTokens,
  });
}

/** The region as plain text for the summariser, long messages cut in the middle. */
function transcript(region: readonly ChatMessage[], window = 128_000): string {
  const label = (m: ChatMessage, i: number) => {
    if (carried.has(m)) return "EARLIER SUMMARY";
    if (m.role === "assistant") return "AGENT";
    return classify(m, i + 1).kind === "instruction" ? "USER" : "TOOL RESULT";
  };
  const text = region.map((m, i) => `${label(m, i)}:\n${middleCut(m.content, 2000)}`)
    .join("\n\n");
  // About half the window for the request, at roughly four characters a token.
  return middleCut(text, Math.max(4000, window * 2));
}

function middleCut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.75);
  return `${text.slice(0, head)}\n[… ${text.length - max} characters left out …]\n` +
    text.slice(text.length - (max - head));
}

function toolHeader(m: ChatMessage, i: number): string[] {
  const info = classify(m, i + 1);
  if (info.kind !== "output") return [];
  const first = m.content.split("\n")[0];
  return [first.replace(/:$/, "")];
}

/** The block: summary, instructions verbatim, then the newest files that fit in `room`. */
async function buildBlock(
  summary: string,
  calls: string[],
  keep: Carried,
  room: number,
): Promise<ChatMessage> {
  const parts = [HEADER, `## Summary\n${summary}`];
  if (calls.length) parts.push(`## Tool calls in that part\n${calls.join("\n")}`);
  if (keep.instructions.length) {
    const list = keep.instructions.map((t, i) => `${i + 1}. ${t}`).join("\n");
    parts.push(`## The user's instructions so far (verbatim, oldest first)\n${list}`);
  }
  let used = await countText(parts.join("\n\n"));
  const files: string[] = [];
  const left: string[] = [];
  for (const [key, m] of [...keep.files].reverse()) {
    const cost = await countMessage(m);
    if (used + cost <= room) {
      files.unshift(m.content);
      used += cost;
    } else left.unshift(key);
  }
  if (files.length) parts.push(`## Latest content of files read earlier\n${files.join("\n\n")}`);
  if (left.length) parts.push(`(Not kept, read again if needed: ${left.join("; ")})`);
  return { role: "user", content: parts.join("\n\n") };
}
