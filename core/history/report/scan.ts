/**
 * Follows one session's messages in order and turns them into what the
 * report counts: calls with their outcome, tasks with their turns, replies
 * with their timings, and (when asked) a bounded transcript.
 *
 * @module
 */
import type { SessionMessage } from "../../../interfaces/history.ts";
import type { Verdict } from "../../../interfaces/tool.ts";
import type { SessionHeader } from "../format.ts";
import type { CallOutcome, TranscriptItem } from "./data.ts";
import type { Scrub } from "./privacy.ts";

/** One tool call, paired with its result. */
export interface CallFact {
  tool: string;
  outcome: CallOutcome;
  /** The gate that denied it (for `denied` and `blocked`). */
  gate?: string;
  /** The command, for command tools. */
  command?: string;
  ms?: number;
  backupIds?: string[];
  /** Its transcript entry, so a later undo can be shown. */
  item?: Extract<TranscriptItem, { k: "call" }>;
}

/** One assistant reply's figures. */
export interface ReplyFact {
  dialect?: string;
  ttftMs?: number;
  tokensPerSecond?: number;
}

/** Parser events counted as parse errors. */
export const PARSE_EVENTS = new Set([
  "unknown_tool",
  "unclosed",
  "multiple_tool_calls",
  "missing_param",
]);
const COMMAND_TOOLS = new Set(["execute_command", "start_process"]);
/** Longest text kept per transcript entry. */
export const ITEM_CHARS = 4000;
/** Most entries kept per transcript. */
export const TRANSCRIPT_ITEMS = 400;
/** Most characters of text kept per transcript (about 0.5 MB). */
export const TRANSCRIPT_CHARS = 500_000;

/** The state of one session being read. */
export class SessionScan {
  readonly calls: CallFact[] = [];
  readonly replies: ReplyFact[] = [];
  /** Turns of each task, in order. */
  readonly taskTurns: number[] = [];
  readonly parseErrors: Record<string, number> = {};
  tokensIn = 0;
  tokensOut = 0;
  messages = 0;
  retries = 0;
  userRetries = 0;
  providerErrors = 0;
  request = "";
  outcome = "empty";
  lastTime = "";
  readonly items: TranscriptItem[] | null;
  #dropped = 0;
  #chars = 0;
  #open: CallFact | undefined;
  #prev: SessionMessage | undefined;

  constructor(readonly header: SessionHeader, readonly scrub: Scrub, transcript: boolean) {
    this.items = transcript ? [] : null;
  }

  /** Takes the next message. */
  add(m: SessionMessage): void {
    this.messages++;
    this.lastTime = m.timestamp;
    if (m.role === "user") this.#user(m);
    else if (m.role === "assistant") this.#assistant(m);
    else if (m.role === "tool_call") this.#call(m);
    else if (m.role === "tool_response") this.#result(m);
    else this.#system(m);
    this.#prev = m;
  }

  /** The transcript entries, with a note of what was left out. */
  transcript(): TranscriptItem[] {
    const items = this.items ?? [];
    return this.#dropped ? [...items, { k: "more", count: this.#dropped }] : items;
  }

  #user(m: SessionMessage): void {
    const p = this.#prev;
    const fed = p?.role === "tool_response" || (p?.role === "system" && p.event !== undefined);
    if (fed) return; // a tool result or parser feedback sent to the model: shown as its result
    this.taskTurns.push(0);
    this.outcome = "unfinished";
    if (this.request === "") this.request = this.scrub(m.content.slice(0, 200));
    this.#item({ k: "user", t: m.timestamp, text: this.#text(m.content) });
  }

  #assistant(m: SessionMessage): void {
    if (this.taskTurns.length === 0) this.taskTurns.push(0);
    this.taskTurns[this.taskTurns.length - 1]++;
    this.outcome = "answered";
    const u = m.usage;
    this.tokensIn += u?.promptTokens ?? 0;
    this.tokensOut += u?.completionTokens ?? 0;
    this.retries += m.retries ?? 0;
    const fact: ReplyFact = { dialect: m.dialect, ttftMs: m.firstTokenMs };
    const genMs = (m.durationMs ?? 0) - (m.firstTokenMs ?? 0);
    if (u && u.completionTokens > 0 && genMs > 0) {
      fact.tokensPerSecond = u.completionTokens / (genMs / 1000);
    }
    this.replies.push(fact);
    this.#item({
      k: "assistant",
      t: m.timestamp,
      text: this.#text(m.content),
      ...(m.reasoning ? { reasoning: this.#text(m.reasoning) } : {}),
      ...(m.dialect ? { dialect: m.dialect } : {}),
      ...(u ? { tokensIn: u.promptTokens, tokensOut: u.completionTokens } : {}),
      ...(m.durationMs !== undefined ? { ms: Math.round(m.durationMs) } : {}),
      ...(m.firstTokenMs !== undefined ? { ttftMs: m.firstTokenMs } : {}),
      ...(m.retries ? { retries: m.retries } : {}),
    });
  }

  #call(m: SessionMessage): void {
    const tool = m.call?.tool ?? "unknown";
    const verdicts = m.verdicts ?? [];
    const { outcome, gate } = judge(verdicts);
    const fact: CallFact = { tool, outcome, ...(gate ? { gate } : {}) };
    const command = m.call?.params.command;
    if (COMMAND_TOOLS.has(tool) && typeof command === "string") {
      fact.command = this.scrub(command.trim().slice(0, 300));
    }
    if (m.backupIds?.length) fact.backupIds = m.backupIds;
    this.calls.push(fact);
    this.#open = fact;
    const item: Extract<TranscriptItem, { k: "call" }> = {
      k: "call",
      t: m.timestamp,
      tool,
      params: this.#params(m),
      verdicts: verdicts.map((v) => this.#verdict(v)),
      ...(m.allowedBy ? { allowedBy: this.scrub(m.allowedBy) } : {}),
      outcome,
    };
    if (this.#item(item)) fact.item = item;
  }

  #result(m: SessionMessage): void {
    const fact = this.#open;
    this.#open = undefined;
    if (fact) {
      if (fact.outcome === "ok" && m.ok === false) fact.outcome = "error";
      if (fact.item) fact.item.outcome = fact.outcome;
      fact.ms = m.toolMs;
      if (m.backupIds?.length) fact.backupIds = [...(fact.backupIds ?? []), ...m.backupIds];
      if (fact.tool === "attempt_completion" && m.ok !== false) this.outcome = "completed";
    }
    if (m.code === "invalid_args") this.#count("invalid_args");
    this.#item({
      k: "result",
      t: m.timestamp,
      tool: m.tool ?? fact?.tool ?? "tool",
      ok: m.ok !== false,
      ...(m.code ? { code: m.code } : {}),
      ...(m.toolMs !== undefined ? { ms: m.toolMs } : {}),
      text: this.#text(m.content),
    });
  }

  #system(m: SessionMessage): void {
    const event = m.event ?? "notice";
    if (PARSE_EVENTS.has(event)) this.#count(event);
    if (event === "retry") this.userRetries++;
    if (event === "provider_error") {
      this.providerErrors++;
      this.outcome = "provider error";
    }
    this.#item({ k: "system", t: m.timestamp, event, text: this.#text(m.content) });
  }

  #count(kind: string): void {
    this.parseErrors[kind] = (this.parseErrors[kind] ?? 0) + 1;
  }

  #item(item: TranscriptItem): boolean {
    if (this.items === null) return false;
    if (this.items.length >= TRANSCRIPT_ITEMS || this.#chars >= TRANSCRIPT_CHARS) {
      this.#dropped++;
      return false;
    }
    this.#chars += textSize(item);
    this.items.push(item);
    return true;
  }

  #text(text: string): string {
    if (this.items === null) return "";
    const cut = text.length > ITEM_CHARS
      ? `${text.slice(0, ITEM_CHARS)}\n… ${text.length - ITEM_CHARS} more characters`
      : text;
    return this.scrub(cut);
  }

  #params(m: SessionMessage): Record<string, string> {
    const out: Record<string, string> = {};
    if (this.items === null) return out;
    for (const [name, value] of Object.entries(m.call?.params ?? {})) {
      out[name] = this.#text(Array.isArray(value) ? value.join("\n") : value);
    }
    return out;
  }

  #verdict(v: Verdict): Extract<TranscriptItem, { k: "call" }>["verdicts"][number] {
    return {
      gate: v.gate,
      action: v.action,
      ...(v.reason ? { reason: this.scrub(v.reason) } : {}),
      ...(v.rule ? { rule: this.scrub(v.rule) } : {}),
    };
  }
}

function textSize(item: TranscriptItem): number {
  if (item.k === "more") return 0;
  if (item.k === "call") return Object.values(item.params).reduce((n, v) => n + v.length, 0);
  return item.text.length + (item.k === "assistant" ? item.reasoning?.length ?? 0 : 0);
}

/** The outcome the gates gave a call (before its result is known). */
export function judge(verdicts: readonly Verdict[]): { outcome: CallOutcome; gate?: string } {
  if (verdicts.length === 0) return { outcome: "invalid" };
  const deny = verdicts.find((v) => v.action === "deny");
  if (deny) return { outcome: deny.gate === "security" ? "blocked" : "denied", gate: deny.gate };
  if (verdicts.some((v) => v.action === "simulate")) return { outcome: "simulated" };
  return { outcome: "ok" };
}
