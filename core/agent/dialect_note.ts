/**
 * What the model is told after a call it wrote in another dialect: once per
 * session, a one-line reminder of minoc's own form with the very call in it,
 * so weak models converge; and, every time, what the parser changed.
 *
 * @module
 */
import type { ParseResult } from "../../interfaces/tool.ts";
import { formatCall } from "../protocol/feedback.ts";

/** Remembers per session whether the reminder was given. */
export interface ReminderState {
  dialectReminded?: boolean;
}

/**
 * The lines to add to the tool result of `parsed` (empty when none): the
 * dialect reminder the first time a session sees a non-canonical call, and
 * the parser's notice (e.g. XML entities decoded).
 */
export function dialectNote(
  parsed: Extract<ParseResult, { kind: "call" }>,
  state: ReminderState,
): string {
  const lines: string[] = [];
  const dialect = parsed.dialect;
  if (dialect !== undefined && dialect !== "canonical" && !state.dialectReminded) {
    state.dialectReminded = true;
    const call = formatCall(parsed.call.tool, shortened(parsed.call.params)).replaceAll("\n", "");
    lines.push(
      `Note: your call was read from the "${dialect}" format; minoc's own form is ${call}`,
    );
  }
  if (parsed.notice !== undefined) lines.push(`Note: ${parsed.notice}`);
  return lines.join("\n");
}

/** Values cut to one short line, so the reminder stays one line whatever was written. */
function shortened(
  params: Readonly<Record<string, string | readonly string[]>>,
): Record<string, string | string[]> {
  const cut = (v: string) => {
    const line = v.split("\n").find((l) => l.trim() !== "") ?? "";
    return line.length > 40 || line !== v ? `${line.slice(0, 40)}…` : v;
  };
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(params)) out[k] = typeof v === "string" ? cut(v) : v.map(cut);
  return out;
}

/**
 * The assistant message sent back to the model in later turns: the reply
 * without its reasoning, unless the model's entry asks to keep it.
 */
export function replyForModel(
  reply: { visible: string; reasoning: string },
  keepReasoning: boolean,
): string {
  if (!keepReasoning || reply.reasoning === "") return reply.visible;
  return `<think>\n${reply.reasoning}\n</think>\n${reply.visible}`;
}
