/**
 * How `read_file` and `read_files` show a text file to the model: a header
 * (path, which lines of how many) and numbered lines, capped in lines and
 * characters with a note saying how to read further.
 *
 * @example
 * ```ts
 * const view = renderLines("src/a.ts", text, { maxLines: 2000, maxChars: 50_000 });
 * view.text; // "src/a.ts (3 lines)\n1\tconst a = 1;\n..."
 * ```
 * @module
 */
import { plural, splitLines } from "./paths.ts";

/** Longest line shown whole; longer ones are cut with a note. */
export const MAX_LINE_CHARS = 2000;

/** Which part of a file to show, and the caps. */
export interface ViewOptions {
  /** 1-based first line (default 1). */
  start?: number;
  /** 1-based last line (default: the last). */
  end?: number;
  maxLines: number;
  maxChars: number;
}

/** A rendered view, or why the requested range is wrong. */
export type View =
  | {
    ok: true;
    /** `header` + newline + numbered lines (+ a note when cut). */
    text: string;
    /** The path and which lines, e.g. `src/a.ts (lines 1-40 of 90)`. */
    header: string;
    /** The numbered lines and the note, without the header. */
    body: string;
    from: number;
    to: number;
    total: number;
    cut: boolean;
  }
  | { ok: false; message: string };

/** Numbered lines of `text` under a header naming `shown`. */
export function renderLines(shown: string, text: string, o: ViewOptions): View {
  const lines = splitLines(text);
  const total = lines.length;
  const start = o.start ?? 1;
  if (total === 0) {
    const header = `${shown} (empty file)`;
    return { ok: true, text: header, header, body: "", from: 0, to: 0, total, cut: false };
  }
  if (start > total) {
    return {
      ok: false,
      message: `start_line ${start} is past the end of "${shown}" (${plural(total, "line")})`,
    };
  }
  if (o.end !== undefined && o.end < start) {
    return { ok: false, message: `end_line ${o.end} is before start_line ${start}` };
  }
  const end = Math.min(o.end ?? total, total);
  const width = String(end).length;
  const body: string[] = [];
  let size = 0;
  let to = start - 1;
  for (let n = start; n <= end && n - start < o.maxLines; n++) {
    let line = lines[n - 1];
    if (line.length > MAX_LINE_CHARS) {
      line = `${line.slice(0, MAX_LINE_CHARS)}… [${line.length - MAX_LINE_CHARS} more characters]`;
    }
    const row = `${String(n).padStart(width)}\t${line}`;
    if (size + row.length > o.maxChars && n > start) break;
    body.push(row);
    size += row.length + 1;
    to = n;
  }
  const whole = start === 1 && to === total;
  const header = whole
    ? `${shown} (${plural(total, "line")})`
    : `${shown} (lines ${start}-${to} of ${total})`;
  const cut = to < end;
  const more = cut
    ? `\n[Showing lines ${start}-${to} of ${total}. To read more, call read_file with start_line ${
      to + 1
    }.]`
    : "";
  const rows = body.join("\n") + more;
  return { ok: true, text: `${header}\n${rows}`, header, body: rows, from: start, to, total, cut };
}
