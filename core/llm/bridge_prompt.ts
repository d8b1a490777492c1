/**
 * Renders one bridge request as a single paste-able prompt: the system
 * prompt with the bridge's rules, the project (summary or full contents),
 * the conversation so far, and the latest tool results or request.
 *
 * @example
 * ```ts
 * const text = renderBridgePrompt({ messages, mode: "browse", project: summary, cwd, turn: 1 });
 * ```
 * @module
 */
import type { ChatMessage } from "../../interfaces/agent.ts";
import { BRIDGE_DOC, type BridgeMode, EDIT_BLOCKS_DOC } from "../protocol/bridge_format.ts";

/** What one prompt is made of. */
export interface BridgePromptInput {
  /** The conversation; the first message is the system prompt. */
  messages: readonly ChatMessage[];
  mode: BridgeMode;
  /** The project summary (browse) or the files' contents (edit). */
  project: string;
  cwd: string;
  /** Which request of the session this is (from 1). */
  turn: number;
}

const RESULT = /^(\[[^\]\n]+\] (Result|Error)|Tool call error|Invalid arguments for )/;

/** Whether a user-role message is minoc's report of a tool call rather than the user's words. */
export function isToolReport(content: string): boolean {
  return RESULT.test(content);
}

/** The whole prompt for one request. */
export function renderBridgePrompt(i: BridgePromptInput): string {
  const [first, ...rest] = i.messages;
  const system = first?.role === "system" ? first.content : "";
  const convo = first?.role === "system" ? rest : [...i.messages];
  const last = convo.length > 0 ? convo[convo.length - 1] : undefined;
  const earlier = last?.role === "user" ? convo.slice(0, -1) : convo;
  // The session's system prompt normally carries both docs already.
  const docs = [EDIT_BLOCKS_DOC, BRIDGE_DOC].filter((d) => !system.includes(d));
  const out = [
    `=== Message ${i.turn} from minoc, a coding agent in the user's terminal ===`,
    `# Instructions\n${system.trim()}`,
    ...docs,
    `# Project (${i.mode} mode): ${i.cwd}\n${projectIntro(i.mode)}\n\n${i.project}`,
  ];
  if (earlier.length > 0) {
    out.push(`# Conversation so far\n${earlier.map(renderMessage).join("\n\n")}`);
  }
  if (last?.role === "user") {
    const report = isToolReport(last.content);
    const title = report ? "# Latest tool results" : "# The user's request";
    out.push(`${title}\n${last.content.trim()}`);
  }
  out.push(
    "Answer now: edit blocks, one tool call or one directive, or your final answer in plain text.",
  );
  return out.join("\n\n") + "\n";
}

function projectIntro(mode: BridgeMode): string {
  return mode === "browse"
    ? "Summary: each file with its line count and its exported names or headings. " +
      "Ask for the files you need, or switch to edit mode."
    : "The full contents of the project's text files.";
}

function renderMessage(m: ChatMessage): string {
  const who = m.role === "assistant"
    ? "You"
    : m.role === "system"
    ? "minoc (note)"
    : isToolReport(m.content)
    ? "minoc (tool result)"
    : "User";
  return `## ${who}:\n${m.content.trim()}`;
}
