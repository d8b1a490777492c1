/**
 * The DIFF block: unified-diff hunks read leniently and placed by their text.
 *
 * Hunks open with `@@ -a,b +c,d @@`, `@@ @@` or a bare `@@` (optional `---` /
 * `+++` lines before the first); ` ` marks context, `-` a removed line, `+`
 * an added one, an empty line is an empty context line, and `\ No newline at
 * end of file` is understood. Line counts are ignored and line numbers are
 * only hints: a hunk is placed where its old lines (context + removed) occur
 * as one run — exact first, then ignoring trailing whitespace, then ignoring
 * surrounding whitespace; in that last case the added lines are moved by the
 * indentation offset the match needed, and a hunk whose offset is not
 * consistent is refused (`indentShift`).
 *
 * @example
 * ```ts
 * const hunks = parseHunks(["@@ -1 +1 @@", "-a", "+b"]);
 * applyHunks("a\n", hunks); // { ok: true, text: "b\n" }
 * ```
 * @module
 */

import { indentShift } from "./indent_shift.ts";

/** One line of a hunk; `noEol` when `\ No newline at end of file` follows it. */
export interface HunkLine {
  op: " " | "-" | "+";
  text: string;
  noEol: boolean;
}

/** A hunk: its lines and the old start line its header names (null: none). */
export interface Hunk {
  hint: number | null;
  lines: HunkLine[];
}

/** A file line and the line break after it (`""` for a last line without one). */
export interface Line {
  text: string;
  eol: "\n" | "\r\n" | "";
}

/** Why a hunk could not be placed, with the hunk's number (from 1). */
export type HunkFailure =
  | { kind: "hunk_not_found"; hunk: number; first: string }
  | { kind: "ambiguous"; hunk: number; lines: number[] }
  | { kind: "indentation"; hunk: number; reason: string };

const HUNK_HEAD = /^@@/;
const HINT = /^@@\s*-(\d+)/;
const FILE_HEAD = /^(---|\+\+\+)(\s|$)|^diff\s|^index\s/;

/** Reads the body lines of a DIFF block into hunks. */
export function parseHunks(body: readonly string[]): Hunk[] {
  const hunks: Hunk[] = [];
  let cur: Hunk | null = null;
  for (const raw of body) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (HUNK_HEAD.test(line)) {
      const m = HINT.exec(line);
      cur = { hint: m ? Number(m[1]) : null, lines: [] };
      hunks.push(cur);
      continue;
    }
    if (cur === null) {
      if (FILE_HEAD.test(line) || line.trim() === "") continue;
      cur = { hint: null, lines: [] };
      hunks.push(cur);
    }
    if (line.startsWith("\\")) {
      const last = cur.lines[cur.lines.length - 1];
      if (last) last.noEol = true;
      continue;
    }
    const op = line[0];
    if (op === "+" || op === "-" || op === " ") {
      cur.lines.push({ op, text: line.slice(1), noEol: false });
    } else {
      // An empty line, or a context line whose leading space was lost.
      cur.lines.push({ op: " ", text: line, noEol: false });
    }
  }
  return hunks;
}

/** Splits text into lines with their own line breaks. */
export function toLines(text: string): Line[] {
  const out: Line[] = [];
  let i = 0;
  while (i < text.length) {
    const j = text.indexOf("\n", i);
    if (j < 0) {
      out.push({ text: text.slice(i), eol: "" });
      break;
    }
    const crlf = j > i && text.charCodeAt(j - 1) === 13;
    out.push({ text: text.slice(i, crlf ? j - 1 : j), eol: crlf ? "\r\n" : "\n" });
    i = j + 1;
  }
  return out;
}

/** Joins lines back into text. */
export function fromLines(lines: readonly Line[]): string {
  return lines.map((l) => l.text + l.eol).join("");
}

/** The file's line break: CRLF when most of its line breaks are CRLF, else LF. */
export function eolOf(lines: readonly Line[]): "\n" | "\r\n" {
  let crlf = 0;
  let lf = 0;
  for (const l of lines) {
    if (l.eol === "\r\n") crlf++;
    else if (l.eol === "\n") lf++;
  }
  return crlf > lf ? "\r\n" : "\n";
}

const LEVELS: ((a: string, b: string) => boolean)[] = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
];

/** Applies hunks in order to `text`; hints shift with the lines earlier hunks added. */
export function applyHunks(
  text: string,
  hunks: readonly Hunk[],
): { ok: true; text: string } | { ok: false; failure: HunkFailure } {
  let lines = toLines(text);
  const eol = eolOf(lines);
  let shift = 0;
  for (let k = 0; k < hunks.length; k++) {
    const placed = placeWithTrim(lines, hunks[k], shift, k + 1);
    if (!placed.ok) return placed;
    const hunk = placed.loose ? shifted(lines, placed.at, placed.hunk, k + 1) : placed;
    if (!hunk.ok) return hunk;
    const next = splice(lines, placed.at, hunk.hunk, eol);
    shift += next.length - lines.length;
    lines = next;
  }
  return { ok: true, text: fromLines(lines) };
}

type Placed = { ok: true; at: number; loose: boolean } | { ok: false; failure: HunkFailure };

/** Places a hunk; when it is not found, tries again without trailing empty context lines. */
function placeWithTrim(
  lines: readonly Line[],
  hunk: Hunk,
  shift: number,
  n: number,
): { ok: true; at: number; loose: boolean; hunk: Hunk } | { ok: false; failure: HunkFailure } {
  const first = place(lines, hunk, shift, n);
  if (first.ok) return { ...first, hunk };
  if (first.failure.kind !== "hunk_not_found") return first;
  let end = hunk.lines.length;
  while (end > 0 && hunk.lines[end - 1].op === " " && hunk.lines[end - 1].text.trim() === "") end--;
  if (end === hunk.lines.length || end === 0) return first;
  const trimmed = { hint: hunk.hint, lines: hunk.lines.slice(0, end) };
  const again = place(lines, trimmed, shift, n);
  return again.ok ? { ...again, hunk: trimmed } : first;
}

function place(lines: readonly Line[], hunk: Hunk, shift: number, n: number): Placed {
  const old = hunk.lines.filter((l) => l.op !== "+").map((l) => l.text);
  if (old.length === 0) return placeInsertion(lines, hunk, shift, n);
  const wanted = hunk.hint === null ? null : hunk.hint - 1 + shift;
  for (let level = 0; level < LEVELS.length; level++) {
    const same = LEVELS[level];
    const loose = level === LEVELS.length - 1;
    const found: number[] = [];
    for (let i = 0; i + old.length <= lines.length; i++) {
      if (old.every((t, j) => same(lines[i + j].text, t))) found.push(i);
    }
    if (found.length === 1) return { ok: true, at: found[0], loose };
    if (found.length > 1) {
      if (wanted !== null && found.includes(wanted)) return { ok: true, at: wanted, loose };
      return { ok: false, failure: { kind: "ambiguous", hunk: n, lines: found.map((i) => i + 1) } };
    }
  }
  return { ok: false, failure: { kind: "hunk_not_found", hunk: n, first: old[0] } };
}

/**
 * A hunk placed with surrounding whitespace ignored: its added lines moved
 * by the indentation offset between its old lines and the file's, or refused.
 */
function shifted(
  lines: readonly Line[],
  at: number,
  hunk: Hunk,
  n: number,
): { ok: true; hunk: Hunk } | { ok: false; failure: HunkFailure } {
  const old = hunk.lines.filter((l) => l.op !== "+").map((l) => l.text);
  const file = lines.slice(at, at + old.length).map((l) => l.text);
  const added = hunk.lines.filter((l) => l.op === "+").map((l) => l.text);
  const moved = indentShift(old, file, added);
  if (!moved.ok) {
    return { ok: false, failure: { kind: "indentation", hunk: n, reason: moved.reason } };
  }
  let k = 0;
  const out = hunk.lines.map((l) => (l.op === "+" ? { ...l, text: moved.lines[k++] } : l));
  return { ok: true, hunk: { hint: hunk.hint, lines: out } };
}

/** A hunk with only added lines: at `-a,0` (after line a), or into an empty file. */
function placeInsertion(lines: readonly Line[], hunk: Hunk, shift: number, n: number): Placed {
  if (hunk.hint !== null) {
    return { ok: true, at: Math.min(lines.length, hunk.hint + shift), loose: false };
  }
  if (lines.length === 0) return { ok: true, at: 0, loose: false };
  return {
    ok: false,
    failure: { kind: "ambiguous", hunk: n, lines: [] },
  };
}

/** The file with the hunk applied at `at`, line breaks and the final-newline state kept. */
function splice(lines: readonly Line[], at: number, hunk: Hunk, eol: "\n" | "\r\n"): Line[] {
  const out: Line[] = [];
  let fi = at;
  for (const hl of hunk.lines) {
    if (hl.op === " ") out.push({ ...lines[fi++] });
    else if (hl.op === "-") fi++;
    else out.push({ text: hl.text, eol });
  }
  const atEnd = fi === lines.length;
  const next = [...lines.slice(0, at), ...out, ...lines.slice(fi)];
  for (let i = 0; i < next.length - 1; i++) if (next[i].eol === "") next[i].eol = eol;
  if (atEnd && next.length > 0) {
    const last = next[next.length - 1];
    last.eol = finalEol(last, lines, hunk, eol);
  }
  return next;
}

/**
 * The last line's break after a hunk that reaches the end of the file: what
 * the diff says (`\ No newline` on the new or only the old side), else the
 * file's own final-newline state.
 */
function finalEol(
  last: Line,
  before: readonly Line[],
  hunk: Hunk,
  eol: "\n" | "\r\n",
): Line["eol"] {
  const newSide = hunk.lines.filter((l) => l.op !== "-");
  const oldSide = hunk.lines.filter((l) => l.op !== "+");
  if (newSide[newSide.length - 1]?.noEol) return "";
  if (oldSide[oldSide.length - 1]?.noEol) return last.eol || eol;
  const had = before.length === 0 || before[before.length - 1].eol !== "";
  return had ? last.eol || eol : "";
}
