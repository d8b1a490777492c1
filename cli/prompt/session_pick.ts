/**
 * The session pick list the chat shows when the working directory has
 * earlier sessions: a new session, or one of them (date, first request,
 * messages, model), chosen with the arrow keys. Only use it when stdin is a
 * terminal.
 *
 * @module
 */
import type { SessionSummary } from "../../core/history/store.ts";
import { CliError, EXIT } from "../io.ts";
import { visible } from "../../core/protocol/visible.ts";

/** How many earlier sessions the list offers (the newest ones). */
export const PICK_LIMIT = 20;

/** One line of the list for a session: `2026-11-22 08:14  add a line…  12 messages  m1`. */
export function pickLabel(s: SessionSummary, width = 48): string {
  const d = new Date(s.timestamp);
  const pad = (n: number) => String(n).padStart(2, "0");
  const when = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const first = s.firstUserMessage.replace(/\s+/g, " ").trim() || "(no request)";
  const request = first.length > width ? `${first.slice(0, width - 1)}…` : first.padEnd(width);
  const count = `${s.messageCount} message${s.messageCount === 1 ? "" : "s"}`;
  return `${when}  ${request}  ${count.padStart(12)}  ${s.model}`;
}

/**
 * Asks which session to continue; null for a new one. Ctrl+C ends minoc
 * (exit 130).
 */
export async function pickSession(sessions: readonly SessionSummary[]): Promise<
  SessionSummary | null
> {
  const { default: select } = await import("@inquirer/select");
  const shown = sessions.slice(0, PICK_LIMIT);
  const choices = [
    { name: "New session", value: null as SessionSummary | null },
    ...shown.map((s) => ({
      name: `Resume ${visible(pickLabel(s))}`,
      value: s as SessionSummary | null,
    })),
  ];
  const more = sessions.length - shown.length;
  try {
    return await select({
      message: `Earlier sessions in this directory${more > 0 ? ` (newest ${shown.length})` : ""}`,
      choices,
      pageSize: 12,
      loop: false,
    });
  } catch (e) {
    if (e instanceof Error && e.name === "ExitPromptError") {
      throw new CliError("Cancelled", EXIT.interrupted);
    }
    throw e;
  }
}
