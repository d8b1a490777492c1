/**
 * The chat's conversation commands: `/compact` (shrink the model-visible
 * conversation now), `/clear` (start afresh; the same session file records
 * a "cleared" event), `/cost` or `/usage` (the session's totals),
 * `/progress on|off`, and `/retry` (re-send the last turn after a reply
 * failed or was cut off).
 *
 * @module
 */
import { compactContext } from "../../core/agent/context.ts";
import { countMessages } from "../../core/agent/tokens.ts";
import type { CliIO } from "../io.ts";
import type { AgentSession } from "../session.ts";
import type { Palette } from "../ui/colors.ts";
import { formatElapsed } from "../ui/progress.ts";
import { formatCount } from "../ui/tokens_line.ts";
import type { ChatState, SlashResult } from "./slash_state.ts";

/** Handles `/compact`, `/clear`, `/cost`, `/usage`, `/progress` and `/retry`. */
export async function slashContext(
  cmd: string,
  args: string,
  session: AgentSession,
  io: CliIO,
  c: Palette,
  state: ChatState,
): Promise<SlashResult> {
  switch (cmd) {
    case "/compact":
      await compact(session, io, c, state);
      return "handled";
    case "/clear":
      await clear(session, io, c, state);
      return "handled";
    case "/progress":
      progress(args.trim(), io, c, state);
      return "handled";
    case "/retry":
      return await retry(session, io, c, state);
    default:
      io.out(await usageText(session, c));
      return "handled";
  }
}

async function compact(session: AgentSession, io: CliIO, c: Palette, state: ChatState) {
  const r = await state.cancellable((signal) =>
    compactContext(session.deps, session.convo, signal)
  );
  state.progress.end();
  if (r.shortened + r.summarised === 0) {
    io.out(c.dim(`Nothing to compact (${formatCount(r.before)} tokens)\n`));
  }
}

async function clear(session: AgentSession, io: CliIO, c: Palette, state: ChatState) {
  const dropped = session.convo.messages.length - 1;
  session.convo.messages.splice(1);
  state.lastOutcome = undefined;
  await session.recorder.append({
    role: "system",
    content: `Conversation cleared (${dropped} messages): the model starts afresh`,
    event: "cleared",
  });
  io.out(c.dim("Conversation cleared: the model starts afresh (the session file keeps it all)\n"));
}

function progress(arg: string, io: CliIO, c: Palette, state: ChatState): void {
  if (arg === "on" || arg === "off") state.progress.setEnabled(arg === "on");
  else if (arg !== "") {
    io.out(c.yellow(`Unknown setting "${arg}": expected /progress on or /progress off\n`));
    return;
  }
  io.out(c.dim(`progress ${state.progress.enabled ? "on" : "off"}\n`));
}

/** `/retry`: drop the failed reply and hand the last user turn back to the chat. */
async function retry(
  session: AgentSession,
  io: CliIO,
  c: Palette,
  state: ChatState,
): Promise<SlashResult> {
  const last = state.lastOutcome;
  if (last?.kind !== "provider_error" && last?.kind !== "aborted") {
    io.out(c.yellow("Nothing to retry: the last reply was not cut off or failed\n"));
    return "handled";
  }
  const messages = session.convo.messages;
  if (messages.at(-1)?.role === "assistant") messages.pop();
  const turn = messages.at(-1);
  if (messages.length < 2 || turn?.role !== "user") {
    io.out(c.yellow("Nothing to retry: no user turn in the conversation\n"));
    return "handled";
  }
  messages.pop();
  await session.recorder.append({
    role: "system",
    content: "Retrying the last turn after a failed reply",
    event: "retry",
  });
  io.out(c.dim("retrying the last turn\n"));
  return { resend: turn.content };
}

/** The `/cost` (`/usage`) report. */
export async function usageText(session: AgentSession, c: Palette): Promise<string> {
  const snap = session.recorder.snapshot();
  const m = snap.metadata;
  const window = session.settings().contextWindow;
  const used = await countMessages(session.convo.messages);
  const compactions = typeof m.compactions === "number" ? m.compactions : 0;
  const rows: [string, string][] = [
    [
      "tokens",
      `${formatCount(m.totalTokens)} (${formatCount(m.promptTokens)} in, ` +
      `${formatCount(m.completionTokens)} out)`,
    ],
    ["turns", `${m.turns} model replies, ${m.toolCalls} tool calls`],
    ["duration", formatElapsed(m.duration)],
    [
      "context",
      `${formatCount(used)} / ${formatCount(window)} tokens ` +
      `(${Math.round((used / window) * 100)}%)` +
      (compactions ? `, compacted ${compactions}×` : ""),
    ],
    ["model", session.settings().params.model],
  ];
  return rows.map(([k, v]) => `  ${c.bold(k.padEnd(9))} ${v}`).join("\n") + "\n";
}
