/**
 * The text report of `minoc replay`: a line per model turn (what came of the
 * reply, how the call fared today, how many differences), the differences
 * below it, and a total.
 *
 * @module
 */
import type { ReplayReport, TurnReport } from "../../core/agent/session_replay.ts";

/** The whole report; `header` names the session, its source and directory. */
export function formatReplay(report: ReplayReport, header: string): string {
  const lines = [header];
  const width = Math.min(56, Math.max(12, ...report.turns.map((t) => t.today.length)));
  for (const t of report.turns) lines.push(...turnLines(t, width));
  const n = report.differences;
  const turns = `${report.turns.length} turn${report.turns.length === 1 ? "" : "s"}`;
  lines.push(
    n === 0
      ? `${turns}, no differences`
      : `${turns}, ${n} difference${n === 1 ? "" : "s"} in ${
        report.turns.filter((t) => t.differences.length > 0).length
      } turn(s)`,
  );
  return lines.join("\n") + "\n";
}

function turnLines(t: TurnReport, width: number): string[] {
  const today = t.today.length > width ? `${t.today.slice(0, width - 1)}…` : t.today;
  const verdict = t.differences.length === 0
    ? "same"
    : `${t.differences.length} difference${t.differences.length === 1 ? "" : "s"}`;
  const head = `  turn ${String(t.number).padStart(3)}  ${today.padEnd(width)}  ${
    t.state.padEnd(9)
  }  ${verdict}`;
  const out = [head];
  for (const d of t.differences) {
    out.push(`             ${d.kind}: recorded ${d.recorded}`);
    out.push(`             ${" ".repeat(d.kind.length)}  today    ${d.today}`);
  }
  return out;
}
