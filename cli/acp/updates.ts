/**
 * Turns the agent loop's events into ACP `session/update` notifications:
 * prose as `agent_message_chunk`, `<thinking>` as `agent_thought_chunk`, each
 * call as a `tool_call` (kind, title, locations, diff) followed by
 * `tool_call_update`s (status, gate notes, the output as the terminal shows
 * it), and context use as `usage_update`.
 *
 * @example
 * ```ts
 * const updates = new UpdateMapper({ cwd, send: (u) => queue.send(u) });
 * const session = await openSession({ ...o, emit: (ev) => updates.event(ev) });
 * ```
 * @module
 */
import type { SessionUpdate, ToolCallContent, ToolCallLocation } from "@agentclientprotocol/sdk";
import type { AgentEvent, Outcome } from "../../interfaces/agent.ts";
import type { Preview } from "../../interfaces/tool.ts";
import { ThoughtSplitter } from "./thoughts.ts";
import { callLocations, previewContent, previewLocations, text, toolKind } from "./tool_view.ts";

/** Where updates go, in order. */
export type SendUpdate = (update: SessionUpdate) => void;

/** The call that is being gated or run. */
export interface CurrentCall {
  id: string;
  tool: string;
  title: string;
  locations: ToolCallLocation[];
  /** The diff or command, once the call was previewed. */
  content: ToolCallContent[];
  /** Gate notes shown with the result (denials, dry-run). */
  notes: string[];
}

/** Live command output kept for the editor (the end of it). */
const OUTPUT_TAIL = 4000;
/** Live output goes out at most this often. */
const OUTPUT_EVERY_MS = 100;

/** Maps one session's events to updates. */
export class UpdateMapper {
  #n = 0;
  #current: CurrentCall | null = null;
  #split = new ThoughtSplitter();
  #output = "";
  #outputTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly o: { cwd: string; send: SendUpdate }) {}

  /** The call in progress (the permission request names it). */
  get current(): CurrentCall | null {
    return this.#current;
  }

  /** One loop event. */
  event(ev: AgentEvent): void {
    switch (ev.type) {
      case "reasoning":
        return this.#prose([{ thought: true, text: ev.text }]);
      case "text":
        return this.#prose(this.#split.push(ev.text));
      case "reply_end":
        this.#prose(this.#split.flush());
        if (ev.context) {
          this.o.send({
            sessionUpdate: "usage_update",
            used: ev.context.used,
            size: ev.context.window,
          });
        }
        return;
      case "tool_start":
        return this.#start(ev.tool, ev.summary);
      case "verdict":
        return this.#verdict(ev);
      case "state":
        if (ev.state === "running" && this.#current) {
          this.#update({ status: "in_progress" });
        }
        return;
      case "tool_end":
        return this.#end(ev.ok, ev.display);
      case "parse_error":
        return this.thought(`The reply's tool call was not valid (${ev.kind}): ${ev.message}`);
      case "retry_wait":
        return this.thought(`Retrying in ${Math.ceil(ev.waitMs / 1000)} s: ${ev.reason}`);
      case "compacted":
        return this.thought(`Context compacted: ${ev.before} → ${ev.after} tokens`);
      case "done":
        return this.#done(ev.outcome);
    }
  }

  /** The call as parsed and previewed: where it works and, for edits, the diff. */
  previewed(params: Record<string, unknown>, preview: Preview): void {
    const cur = this.#current;
    if (!cur) return;
    const seen = new Set<string>();
    cur.locations = [...previewLocations(preview), ...callLocations(params, this.o.cwd)]
      .filter((l) => !seen.has(l.path) && seen.add(l.path) !== undefined);
    cur.content = previewContent(preview);
    this.#update({ locations: cur.locations, content: cur.content, rawInput: params });
  }

  /** Live output of the running command: the end of it, as the call's content, at most every 100 ms. */
  output(chunk: string): void {
    if (!this.#current) return;
    this.#output = (this.#output + chunk).slice(-OUTPUT_TAIL);
    this.#outputTimer ??= setTimeout(() => {
      this.#outputTimer = null;
      const cur = this.#current;
      if (cur) this.#update({ content: [...cur.content, text(this.#output)] });
    }, OUTPUT_EVERY_MS);
  }

  /** A note from minoc itself, shown as a thought. */
  thought(note: string): void {
    this.o.send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: note } });
  }

  /** A message to the user. */
  message(value: string): void {
    this.o.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: value } });
  }

  #prose(segments: { thought: boolean; text: string }[]): void {
    for (const s of segments) {
      if (s.thought) this.thought(s.text);
      else this.message(s.text);
    }
  }

  #start(tool: string, summary: string): void {
    this.#prose(this.#split.flush());
    this.#output = "";
    const id = `call_${++this.#n}`;
    this.#current = { id, tool, title: summary, locations: [], content: [], notes: [] };
    this.o.send({
      sessionUpdate: "tool_call",
      toolCallId: id,
      title: summary,
      kind: toolKind(tool),
      status: "pending",
    });
  }

  #verdict(ev: Extract<AgentEvent, { type: "verdict" }>): void {
    const cur = this.#current;
    if (!cur) return;
    if (ev.gate === "step") cur.notes.push(`Step mode: ${ev.rule ?? ev.action}`);
    else if (ev.action === "deny") {
      cur.notes.push(`Denied by ${ev.gate}: ${ev.reason ?? "refused"}`);
    }
    if (ev.action === "simulate") cur.notes.push(`Dry run: ${ev.reason ?? "not run"}`);
  }

  #end(ok: boolean, display: string): void {
    const cur = this.#current;
    if (!cur) return;
    if (this.#outputTimer) clearTimeout(this.#outputTimer);
    this.#outputTimer = null;
    const shown = [...cur.notes, display.trim()].filter((s) => s !== "").join("\n");
    this.#update({
      status: ok ? "completed" : "failed",
      content: [...cur.content, ...(shown ? [text(shown)] : [])],
      rawOutput: { ok, display },
    });
    this.#current = null;
  }

  #done(outcome: Outcome): void {
    this.#prose(this.#split.flush());
    if (outcome.kind === "completed") this.message(`\n${outcome.result}\n`);
    if (outcome.kind === "provider_error") this.message(`\nError: ${outcome.error.message}\n`);
    if (outcome.kind === "parse_errors") {
      this.message(`\nStopped: ${outcome.count} invalid tool calls in a row.\n`);
    }
  }

  #update(
    fields: Omit<
      Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>,
      "sessionUpdate" | "toolCallId"
    >,
  ): void {
    const cur = this.#current;
    if (!cur) return;
    this.o.send({ sessionUpdate: "tool_call_update", toolCallId: cur.id, ...fields });
  }
}
