/**
 * `session/load`: a recorded minoc session told again as ACP updates — the
 * user's requests, the model's prose and thoughts (without the tool-call
 * XML), and each call with its final status and output.
 *
 * @example
 * ```ts
 * for (const u of replayUpdates(session.session, cwd)) send(u);
 * ```
 * @module
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { SessionFile, SessionMessage } from "../../interfaces/history.ts";
import { ProseScanner } from "../../core/protocol/prose_scan.ts";
import { ThoughtSplitter } from "./thoughts.ts";
import { callLocations, text, toolKind } from "./tool_view.ts";

/** Longest tool output replayed (the end is cut, as in the terminal's view). */
const OUTPUT_LIMIT = 2000;

/** The updates that retell `session`; tool call ids are `load_<n>`. */
export function replayUpdates(session: SessionFile, cwd: string): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  const ms = session.messages;
  let n = 0;
  ms.forEach((m, i) => {
    if (m.role === "user" && fromUser(ms[i - 1])) {
      out.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text: m.content } });
    } else if (m.role === "assistant") {
      if (m.reasoning) {
        out.push({
          sessionUpdate: "agent_thought_chunk",
          content: { type: "text", text: m.reasoning },
        });
      }
      out.push(...prose(m.content));
    } else if (m.role === "tool_call" && m.call) {
      const response = ms.slice(i + 1).find((r) =>
        r.role === "tool_response" || r.role === "tool_call"
      );
      const done = response?.role === "tool_response" ? response : undefined;
      out.push({
        sessionUpdate: "tool_call",
        toolCallId: `load_${++n}`,
        title: m.content,
        kind: toolKind(m.call.tool),
        status: done?.ok === false || !done ? "failed" : "completed",
        locations: callLocations(m.call.params, cwd),
        rawInput: m.call.params,
        content: done
          ? [text(cut(done.content))]
          : [text("minoc stopped before this call finished")],
      });
    }
  });
  return out;
}

/** Events after which the loop itself sends the model a message. */
const PARSE_ERRORS = new Set(["unknown_tool", "unclosed", "multiple_tool_calls", "missing_param"]);

/** A user message the user wrote (not a tool result or parse feedback the loop sent). */
function fromUser(previous: SessionMessage | undefined): boolean {
  if (!previous) return true;
  if (previous.role === "tool_response") return false;
  return !(previous.role === "system" && PARSE_ERRORS.has(previous.event ?? ""));
}

function prose(reply: string): SessionUpdate[] {
  const scan = new ProseScanner(0);
  scan.scan(reply + "\n", 0, 0);
  const before = reply.slice(0, scan.opener?.start ?? reply.length);
  const split = new ThoughtSplitter();
  return [...split.push(before), ...split.flush()].map((s) => ({
    sessionUpdate: s.thought ? "agent_thought_chunk" : "agent_message_chunk",
    content: { type: "text", text: s.text },
  }));
}

function cut(output: string): string {
  return output.length > OUTPUT_LIMIT ? `${output.slice(0, OUTPUT_LIMIT)}\n…` : output;
}
