/**
 * Which tool-call dialects each model writes, and how often its replies fail
 * to parse: from the `dialect` each recorded assistant reply carries and the
 * parse-error events of the session.
 *
 * @module
 */
import type { SessionFile } from "../../interfaces/history.ts";
import { textTable } from "./text_table.ts";

/** Per-model dialect figures. */
export interface DialectStats {
  model: string;
  /** Assistant replies recorded. */
  replies: number;
  /** Replies that held a call (or a failed one), by dialect. */
  dialects: Record<string, number>;
  /** Parse errors of the parser (not invalid arguments). */
  parseErrors: number;
  /** parseErrors / replies, 0 when there are no replies. */
  parseErrorRate: number;
}

const PARSE_EVENTS = new Set(["unknown_tool", "unclosed", "multiple_tool_calls", "missing_param"]);

/** The figures of `sessions`, per model, sorted by model name. */
export function computeDialects(sessions: readonly SessionFile[]): DialectStats[] {
  const models = new Map<string, DialectStats>();
  for (const s of sessions) {
    let m = models.get(s.model);
    if (m === undefined) {
      m = { model: s.model, replies: 0, dialects: {}, parseErrors: 0, parseErrorRate: 0 };
      models.set(s.model, m);
    }
    for (const msg of s.messages) {
      if (msg.role === "assistant") {
        m.replies++;
        if (msg.dialect) m.dialects[msg.dialect] = (m.dialects[msg.dialect] ?? 0) + 1;
      } else if (msg.role === "system" && msg.event && PARSE_EVENTS.has(msg.event)) {
        m.parseErrors++;
      }
    }
  }
  const out = [...models.values()].sort((a, b) => a.model.localeCompare(b.model));
  for (const m of out) m.parseErrorRate = m.replies === 0 ? 0 : m.parseErrors / m.replies;
  return out;
}

/** The "Dialects" table: replies, parse-error rate and dialect use per model. */
export function formatDialects(stats: readonly DialectStats[]): string {
  const rows = stats.map((m) => [
    m.model,
    m.replies,
    m.parseErrors,
    `${Math.round(m.parseErrorRate * 1000) / 10}%`,
    dialectsText(m.dialects),
  ]);
  return `Dialects\n${
    textTable(["model", "replies", "parse errors", "error rate", "dialects"], rows)
  }`;
}

function dialectsText(d: Record<string, number>): string {
  const parts = Object.entries(d).sort(([, a], [, b]) => b - a).map(([k, n]) => `${k} ${n}`);
  return parts.length ? parts.join(", ") : "-";
}
