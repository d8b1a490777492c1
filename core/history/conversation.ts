/**
 * The conversation a model saw, rebuilt from a session file: what resume
 * sends next and what replay feeds back at each turn.
 *
 * The loop sends the system prompt, then every user and assistant message in
 * order. A tool's result reaches the model as a user message, and the
 * recorder also keeps it as a `tool_response` with its details; the rebuild
 * takes the user message and skips the `tool_response`, so nothing is sent
 * twice. `tool_call` and `system` entries are records only.
 *
 * A file cut by a crash may end between a call and the user message that
 * carries its result. {@link pendingResult} words what the record knows: the
 * result (exactly as the loop words it) or, when the tool never reported
 * back, that its effect is unknown; resume records and sends it first.
 *
 * @example
 * ```ts
 * const session = await loadSession(path);
 * const messages = conversationOf(session);
 * const owed = pendingResult(session); // push it as a user message, and record it
 * ```
 * @module
 */
import type { ChatMessage } from "../../interfaces/agent.ts";
import type { SessionFile } from "../../interfaces/history.ts";
import { callSummary, resultMessage } from "../protocol/call_text.ts";

/** The system prompt and every user and assistant message, in order. */
export function conversationOf(session: SessionFile): ChatMessage[] {
  const out: ChatMessage[] = [{ role: "system", content: session.systemPrompt }];
  for (const m of session.messages) {
    if (m.role === "user" || m.role === "assistant") out.push({ role: m.role, content: m.content });
  }
  return out;
}

/**
 * The user message that a session cut short still owes the model: the result
 * of its last call when the record stops between the call and that message;
 * undefined when nothing is owed. Only the end of a file can be cut, so only
 * the last call is looked at.
 */
export function pendingResult(session: SessionFile): string | undefined {
  const ms = session.messages;
  let i = ms.length - 1;
  while (i >= 0 && (ms[i].role === "system" || ms[i].role === "tool_response")) i--;
  const call = ms[i]?.role === "tool_call" ? ms[i].call : undefined;
  if (call === undefined) return undefined;
  const response = ms.slice(i + 1).find((m) => m.role === "tool_response");
  if (response === undefined) {
    return `[${callSummary(call)}] Error (interrupted):\nminoc stopped before this call ` +
      "finished, so whether it took effect is unknown; check before repeating it.";
  }
  return resultMessage(call, {
    ok: response.ok !== false,
    output: response.content,
    display: "",
    code: response.code,
  });
}
