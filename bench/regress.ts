/**
 * Compares a new results table with the one in the previous RESULTS.md and
 * names every figure that got more than 20% worse, so that `deno task bench`
 * calls regressions out instead of leaving them to be spotted.
 *
 * @module
 */
import { NOTES_MARKER, type Row, show } from "./report.ts";

/** How much worse a figure may get before it is called out. */
export const REGRESSION_LIMIT = 0.2;

/** Units where a larger number is better; in all others (ms, MB, ×, µs, chars) smaller is. */
const HIGHER_IS_BETTER = new Set(["MB/s", "/s"]);
/** Units that are counts, not performance. */
const NOT_COMPARED = new Set(["", "files"]);

/** The figures of a RESULTS.md's generated table (not the notes'), by "area / measure / column". */
export function parseTable(markdown: string): Map<string, number> {
  const out = new Map<string, number>();
  let area = "";
  const notes = markdown.indexOf(NOTES_MARKER);
  const generated = notes < 0 ? markdown : markdown.slice(0, notes);
  for (const line of generated.split("\n")) {
    if (!line.startsWith("|") || line.startsWith("| ---") || line.startsWith("| area")) continue;
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    if (cells.length < 5) continue;
    if (cells[0] !== "") area = cells[0];
    const [, measure, source, bundle, unit] = cells;
    if (NOT_COMPARED.has(unit)) continue;
    for (const [column, text] of [["source", source], ["bundle", bundle]]) {
      const n = Number(text.replaceAll(",", ""));
      if (text !== "" && Number.isFinite(n)) out.set(`${area} / ${measure} / ${column}`, n);
    }
  }
  return out;
}

/** Lines naming each figure of `rows` more than 20% worse than in `previous` (a RESULTS.md). */
export function regressions(previous: string, rows: readonly Row[]): string[] {
  const old = parseTable(previous);
  const found: string[] = [];
  let area = "";
  for (const r of rows) {
    if (r.area !== "") area = r.area;
    if (NOT_COMPARED.has(r.unit)) continue;
    for (const [column, value] of [["source", r.value], ["bundle", r.bundle]] as const) {
      const before = old.get(`${area} / ${r.measure} / ${column}`);
      if (typeof value !== "number" || before === undefined || before <= 0) continue;
      const worse = HIGHER_IS_BETTER.has(r.unit) ? before / value - 1 : value / before - 1;
      if (worse > REGRESSION_LIMIT) {
        found.push(
          `- ${area} / ${r.measure} (${column}): ${show(before)} → ${show(value)} ${r.unit} ` +
            `(${Math.round(worse * 100)}% worse)`,
        );
      }
    }
  }
  return found;
}
