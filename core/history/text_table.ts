/**
 * Plain aligned text tables for the history commands: numbers right-aligned,
 * text left-aligned, two spaces between columns, no colours. Cells come from
 * session files, skills and configuration a cloned project may hold: their
 * control characters are shown as escapes (`core/protocol/visible.ts`).
 *
 * @example
 * ```ts
 * textTable(["tool", "calls"], [["read_file", 3]]);
 * // "tool       calls\nread_file      3\n"
 * ```
 * @module
 */

import { visible } from "../protocol/visible.ts";

/** A cell: numbers are right-aligned, null shows as `-`. */
export type Cell = string | number | null;

/** Renders `rows` under `headers`; every line ends with a newline, trailing spaces trimmed. */
export function textTable(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const numeric = headers.map((_, c) =>
    rows.length > 0 && rows.every((r) => typeof r[c] !== "string")
  );
  const text = rows.map((r) => headers.map((_, c) => visible(cellText(r[c]))));
  const widths = headers.map((h, c) => Math.max(h.length, ...text.map((r) => r[c].length)));
  const line = (cells: string[]) =>
    cells.map((s, c) => (numeric[c] ? s.padStart(widths[c]) : s.padEnd(widths[c])))
      .join("  ").trimEnd();
  return [line([...headers]), ...text.map(line)].join("\n") + "\n";
}

function cellText(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return "-";
  if (typeof cell === "number") return Number.isInteger(cell) ? String(cell) : cell.toFixed(1);
  return cell;
}
