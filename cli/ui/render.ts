/**
 * Turns agent events into terminal output: prose as it streams, a live line
 * for a call being written, one line per tool call and its result.
 *
 * @module
 */
import type { AgentEvent, Outcome } from "../../interfaces/agent.ts";
import type { Palette } from "./colors.ts";
import { MarkdownStream } from "./markdown.ts";
import { formatCount, tokensLine } from "./tokens_line.ts";
import { visibleDeep } from "../../core/protocol/visible.ts";
import { REASONING, type ReasoningDisplay, ReasoningFold } from "./reasoning_view.ts";

/**
 * The events the renderer prints nothing of (they only end a reasoning fold): they are not
 * copied with their text made visible. Every other event, a new kind too, is.
 */
const UNPRINTED: ReadonlySet<AgentEvent["type"]> = new Set<AgentEvent["type"]>([
  "turn_start",
  "waiting",
  "state",
  "parsed",
  "retry_wait",
]);

/** Where and how to render. */
export interface RenderTarget {
  write(text: string): void;
  /** Live (overwritten) lines only on a terminal. */
  tty: boolean;
  colors: Palette;
  /** Hide decoration (tool lines stay). */
  quiet?: boolean;
  /** Render prose as Markdown while it streams (for a colour terminal). */
  markdown?: boolean;
  /** Reasoning display (default: the process-wide one, folded). */
  reasoning?: ReasoningDisplay;
}

/** Returns an event handler that renders to `target`. */
export function createRenderer(target: RenderTarget): (event: AgentEvent) => void {
  const c = target.colors;
  let atLineStart = true;
  let liveLine = false;
  const md = target.markdown ? new MarkdownStream(c) : null;
  const fold = new ReasoningFold(target.reasoning ?? REASONING, c, target.tty);
  const write = (text: string) => {
    if (text === "") return;
    clearLive();
    target.write(text);
    atLineStart = text.endsWith("\n");
  };
  const line = (text: string) => {
    if (!atLineStart) write("\n");
    write(text + "\n");
  };
  function clearLive() {
    if (liveLine) target.write("\r\x1b[2K");
    liveLine = false;
  }
  return (raw: AgentEvent) => {
    const ev = UNPRINTED.has(raw.type) ? raw : visibleDeep(raw);
    if (ev.type === "reasoning") {
      if (!fold.open && !atLineStart) write("\n");
      return void target.write(fold.push(ev.text));
    }
    if (fold.open) write(fold.end());
    if (md && ev.type !== "text") write(md.flush(ev.type === "reply_end"));
    switch (ev.type) {
      case "text":
        return write(md ? md.push(ev.text) : ev.text);
      case "call_progress":
        if (!target.tty) return;
        if (!atLineStart) write("\n");
        clearLive();
        target.write(c.dim(`… ${ev.summary}`));
        liveLine = true;
        return;
      case "tool_start":
        return line(c.cyan(`● ${ev.summary}`));
      case "verdict":
        if (ev.action === "deny") line(c.red(`  ✗ ${ev.reason ?? "denied"}`));
        return;
      case "tool_end":
        return line(toolEnd(ev.ok, ev.display, c));
      case "parse_error":
        return line(c.yellow(`⚠ invalid tool call (${ev.kind}): ${ev.message}`));
      case "reply_end":
        clearLive();
        if (!atLineStart) write("\n");
        if (ev.usage && !target.quiet) line(c.dim(`  ${tokensLine(ev.usage, ev.context)}`));
        return;
      case "compacted":
        if (target.quiet) return;
        return line(c.dim(
          `  context compacted: ${formatCount(ev.before)} → ${formatCount(ev.after)} tokens ` +
            `(${ev.shortened} tool outputs shortened, ${ev.summarised} messages summarised)`,
        ));
      case "done":
        return outcomeLine(ev.outcome, line, c);
      default:
        return;
    }
  };
}

function toolEnd(ok: boolean, display: string, c: Palette): string {
  const lines = display.split("\n");
  const shown = lines.slice(0, 6).map((l, i) => (i === 0 ? "  ⎿ " : "    ") + l);
  if (lines.length > 6) shown.push(`    … ${lines.length - 6} more lines`);
  const text = shown.join("\n");
  return ok ? c.dim(text) : c.red(text);
}

function outcomeLine(o: Outcome, line: (t: string) => void, c: Palette): void {
  switch (o.kind) {
    case "completed":
      return line(c.green(`✔ ${o.result}`));
    case "max_turns":
      return line(c.yellow(`Stopped: reached the limit of ${o.turns} turns (--max-turns)`));
    case "parse_errors":
      return line(c.red(`Stopped: ${o.count} invalid tool calls in a row`));
    case "provider_error":
      return line(c.red(o.error.message));
    case "aborted":
      return line(c.yellow("Cancelled"));
    default:
      return;
  }
}
