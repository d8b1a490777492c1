/**
 * A readable transcript of a session for `minoc history show`: each message
 * with its time and role, tool calls with their parameters, every gate's
 * verdict and the rule that allowed them, tool results with their status
 * and time. Long texts are cut to {@link TRANSCRIPT_LINES} lines unless
 * `full`.
 *
 * @example
 * ```ts
 * io.out(renderTranscript(await loadSession(path), { full: false }));
 * ```
 * @module
 */
import type { SessionFile, SessionMessage } from "../../interfaces/history.ts";
import type { Verdict } from "../../interfaces/tool.ts";

/** Lines of a message's text shown when not `full`. */
export const TRANSCRIPT_LINES = 12;

/** Options of {@link renderTranscript}. */
export interface TranscriptOptions {
  /** Show every line of every message. */
  full?: boolean;
}

/** The whole transcript, ending with a newline. */
export function renderTranscript(s: SessionFile, o: TranscriptOptions = {}): string {
  const meta = s.metadata;
  const head = [
    `Session ${s.sessionId}`,
    `  started   ${s.timestamp}`,
    `  project   ${s.projectPath}`,
    `  model     ${s.model} (${s.mode} mode)`,
    `  totals    ${meta.turns} turns, ${meta.totalTokens} tokens (prompt ${meta.promptTokens}, ` +
    `completion ${meta.completionTokens}), ${meta.toolCalls} tool calls, ` +
    `${meta.parseErrors} parse errors, ${(meta.duration / 1000).toFixed(1)} s`,
  ];
  if (meta.filesChanged.length) head.push(`  changed   ${meta.filesChanged.join(", ")}`);
  if (meta.repaired === true) head.push("  note      repaired after a crash");
  head.push(`  system    ${s.systemPrompt.length} characters (see --json)`);
  const body = s.messages.map((m, i) => renderMessage(m, s.messages[i - 1], o.full === true));
  return `${head.join("\n")}\n\n${body.join("\n")}`;
}

function renderMessage(m: SessionMessage, prev: SessionMessage | undefined, full: boolean): string {
  const time = m.timestamp.slice(11, 19);
  const text = (s: string) => indent(cut(s, full));
  switch (m.role) {
    case "tool_call":
      return `[${time}] tool call: ${m.content}\n${callDetails(m)}`;
    case "tool_response": {
      const status = m.ok === false ? `failed${m.code ? ` (${m.code})` : ""}` : "ok";
      const ms = m.toolMs === undefined ? "" : `, ${m.toolMs} ms`;
      return `[${time}] result of ${m.tool ?? "tool"}: ${status}${ms}\n${backupLine(m)}${
        text(m.content)
      }`;
    }
    case "assistant":
      return `[${time}] assistant${replyFacts(m)}\n${text(m.content)}`;
    case "system":
      return `[${time}] system${m.event ? ` (${m.event})` : ""}\n${text(m.content)}`;
    default: {
      const fed = prev?.role === "tool_response" || (prev?.role === "system" && prev.event);
      const who = fed ? "user (sent to the model)" : "user";
      const shown = fed && !full ? `${m.content.split("\n")[0]}` : m.content;
      return `[${time}] ${who}\n${text(shown)}`;
    }
  }
}

function callDetails(m: SessionMessage): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(m.call?.params ?? {})) {
    const v = Array.isArray(value) ? value.join(", ") : value;
    const first = v.split("\n")[0];
    const more = v.includes("\n") ? ` … (${v.split("\n").length} lines)` : "";
    lines.push(`    ${name}: ${first}${more}`);
  }
  const verdicts = m.verdicts ?? [];
  if (verdicts.length === 0) lines.push("    gates: none (the call was invalid)");
  for (const v of verdicts) lines.push(`    gate ${verdictText(v)}`);
  if (m.allowedBy) lines.push(`    allowed by: ${m.allowedBy}`);
  return lines.join("\n") + "\n" + backupLine(m);
}

/** The undo backups a call made (`backupIds`, on its call or its response), if any. */
function backupLine(m: SessionMessage): string {
  const ids = (m as { backupIds?: unknown }).backupIds;
  return Array.isArray(ids) && ids.length ? `    backups: ${ids.join(", ")}\n` : "";
}

/** `security: deny (rule rm-root) [critical]: deletes the root`. */
export function verdictText(v: Verdict): string {
  const rule = v.rule ? ` (${v.rule})` : "";
  const risk = v.risk ? ` [${v.risk}]` : "";
  const reason = v.reason ? `: ${v.reason}` : "";
  return `${v.gate}: ${v.action}${rule}${risk}${reason}`;
}

function replyFacts(m: SessionMessage): string {
  const parts: string[] = [];
  if (m.usage) parts.push(`${m.usage.completionTokens} tokens`);
  if (m.durationMs !== undefined) parts.push(`${(m.durationMs / 1000).toFixed(1)} s`);
  if (m.dialect !== undefined && m.dialect !== "canonical") parts.push(`dialect ${m.dialect}`);
  if (m.reasoning) parts.push(`reasoning ${m.reasoning.length} chars`);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

function cut(s: string, full: boolean): string {
  const lines = s.split("\n");
  if (full || lines.length <= TRANSCRIPT_LINES) return s;
  const rest = lines.length - TRANSCRIPT_LINES;
  return `${lines.slice(0, TRANSCRIPT_LINES).join("\n")}\n… ${rest} more line${
    rest === 1 ? "" : "s"
  } (--full)`;
}

function indent(s: string): string {
  return s.split("\n").map((l) => `    ${l}`).join("\n") + "\n";
}
