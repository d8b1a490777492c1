/**
 * Exports of recorded sessions.
 *
 * - `jsonl`: one whole session file per line.
 * - `openai`: one chat fine-tuning example per session,
 *   `{"messages":[system, user, assistant, user, …]}`: the system prompt, the
 *   user's requests, the model's replies as written (with their XML tool
 *   calls), and tool results and parser feedback as user messages, exactly
 *   as the model read them. Messages after the last assistant reply are left
 *   out (nothing is learnt from them).
 *
 * @example
 * ```ts
 * for (const s of sessions) io.out(openAiLine(s) + "\n");
 * ```
 * @module
 */
import type { SessionFile, SessionMessage } from "../../interfaces/history.ts";

/** A message of a chat fine-tuning example. */
export interface ChatExample {
  messages: { role: "system" | "user" | "assistant"; content: string }[];
}

/** Export formats. */
export type ExportFormat = "jsonl" | "openai";

/** The export formats, for option choices. */
export const EXPORT_FORMATS: readonly ExportFormat[] = ["jsonl", "openai"];

/** The session as one JSON line (no trailing newline). */
export function jsonlLine(session: SessionFile): string {
  return JSON.stringify(session);
}

/**
 * The session as a chat example. A tool result that the recorder did not
 * follow with the user message the model read (an older or cut-off file) is
 * turned into one.
 */
export function toChatExample(session: SessionFile): ChatExample {
  const out: ChatExample["messages"] = [];
  if (session.systemPrompt !== "") out.push({ role: "system", content: session.systemPrompt });
  const ms = session.messages;
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i];
    if (m.role === "user" || m.role === "assistant") out.push({ role: m.role, content: m.content });
    else if (m.role === "tool_response" && ms[i + 1]?.role !== "user") {
      out.push({ role: "user", content: resultText(m) });
    }
  }
  const last = out.findLastIndex((m) => m.role === "assistant");
  return { messages: out.slice(0, last + 1) };
}

/** The session as one `openai` line (no trailing newline), or null when it has no reply. */
export function openAiLine(session: SessionFile): string | null {
  const example = toChatExample(session);
  return example.messages.some((m) => m.role === "assistant") ? JSON.stringify(example) : null;
}

/** Every line of an export of `sessions`, each ending with a newline. */
export function exportText(sessions: readonly SessionFile[], format: ExportFormat): string {
  const lines = sessions.map((s) => (format === "jsonl" ? jsonlLine(s) : openAiLine(s)));
  return lines.filter((l): l is string => l !== null).map((l) => `${l}\n`).join("");
}

function resultText(m: SessionMessage): string {
  const status = m.ok === false ? `Error${m.code ? ` (${m.code})` : ""}` : "Result";
  return `[${m.tool ?? "tool"}] ${status}:\n${m.content}`;
}
