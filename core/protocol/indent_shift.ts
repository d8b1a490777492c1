/**
 * Re-indentation for edits whose old text matched the file only with leading
 * whitespace ignored. The model's lines and the file's matched lines are
 * compared pair by pair; when they differ by one consistent offset, the
 * model's new lines are moved by that same offset, and when they do not, the
 * edit is refused: a wrong edit must never be reported as a success.
 *
 * Two kinds of offset are understood:
 * - a prefix: the file's indentation is the model's with the same text added
 *   in front (`"    "` + model), or the model's is the file's with the same
 *   text added in front (the model indented too deep);
 * - a change of style: the model indents with spaces and the file with tabs
 *   (or the reverse); each side's unit is the greatest common width of its
 *   indentation, and the levels must differ by the same number on every line
 *   (a new line the model already wrote in the file's style is kept as it is).
 *
 * @example
 * ```ts
 * const s = indentShift(["if (a) {", "}"], ["    if (a) {", "    }"], ["  b();"]);
 * if (s.ok) s.lines; // ["      b();"]
 * ```
 * @module
 */

/** Re-indented new lines, or why the offset is not consistent. */
export type ShiftOutcome =
  | { ok: true; lines: string[] }
  | { ok: false; reason: string };

interface Pair {
  model: string;
  file: string;
  /** 0-based index of the line among the model's old lines. */
  at: number;
}

/** The leading spaces and tabs of `line`. */
export function indentOf(line: string): string {
  let i = 0;
  while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
  return line.slice(0, i);
}

/**
 * Moves `newLines` (written by the model) by the offset between `modelOld`
 * (the model's old lines) and `fileOld` (the file's lines they matched, pair
 * by pair, with surrounding whitespace ignored). Blank new lines become empty.
 */
export function indentShift(
  modelOld: readonly string[],
  fileOld: readonly string[],
  newLines: readonly string[],
): ShiftOutcome {
  const pairs: Pair[] = [];
  modelOld.forEach((line, at) => {
    if (line.trim() !== "") pairs.push({ model: indentOf(line), file: indentOf(fileOld[at]), at });
  });
  if (pairs.length === 0) return { ok: true, lines: newLines.map(blankToEmpty) };
  return byPrefix(pairs, newLines) ?? byStyle(pairs, modelOld, newLines) ??
    { ok: false, reason: inconsistency(pairs) };
}

function blankToEmpty(line: string): string {
  return line.trim() === "" ? "" : line;
}

/** The same text added in front of every line (on the file's side or on the model's). */
function byPrefix(pairs: readonly Pair[], newLines: readonly string[]): ShiftOutcome | null {
  const added = commonFront(pairs.map((p) => [p.file, p.model]));
  if (added !== null) {
    return { ok: true, lines: newLines.map((l) => (l.trim() === "" ? "" : added + l)) };
  }
  const extra = commonFront(pairs.map((p) => [p.model, p.file]));
  if (extra === null) return null;
  const out: string[] = [];
  for (const line of newLines) {
    if (line.trim() === "") out.push("");
    else if (line.startsWith(extra)) out.push(line.slice(extra.length));
    else {
      return {
        ok: false,
        reason: `Your lines are indented ${describe(extra)} deeper than the file's, but the new ` +
          `line "${clip(line.trim())}" is indented less than that, so its place is unclear`,
      };
    }
  }
  return { ok: true, lines: out };
}

/** The text `x` such that `long === x + short` for every pair, or null. */
function commonFront(pairs: readonly (readonly [string, string])[]): string | null {
  let front: string | null = null;
  for (const [long, short] of pairs) {
    if (!long.endsWith(short)) return null;
    const x = long.slice(0, long.length - short.length);
    if (front === null) front = x;
    else if (front !== x) return null;
  }
  return front;
}

interface Style {
  char: " " | "\t";
  unit: number;
}

/** Spaces on one side and tabs on the other, with a constant difference of levels. */
function byStyle(
  pairs: readonly Pair[],
  modelOld: readonly string[],
  newLines: readonly string[],
): ShiftOutcome | null {
  const model = styleOf(modelOld.map(indentOf)) ?? styleOf(newLines.map(indentOf));
  const file = styleOf(pairs.map((p) => p.file));
  if (model === null || file === null) return null;
  let diff: number | null = null;
  for (const p of pairs) {
    const d = p.file.length / file.unit - p.model.length / model.unit;
    if (!Number.isInteger(d) || (diff !== null && d !== diff)) return null;
    diff = d;
  }
  const out: string[] = [];
  for (const line of newLines) {
    if (line.trim() === "") {
      out.push("");
      continue;
    }
    const own = indentOf(line);
    if (own !== "" && own === file.char.repeat(own.length) && file.char !== model.char) {
      out.push(line); // written in the file's own style already
      continue;
    }
    const level = own.length / model.unit + (diff ?? 0);
    const pure = own === model.char.repeat(own.length);
    if (!pure || !Number.isInteger(level) || level < 0) {
      return {
        ok: false,
        reason: `the new line "${clip(line.trim())}" is not indented in whole steps of ` +
          `${describe(model.char.repeat(model.unit))}, so it cannot be moved to the file's ` +
          `${file.char === "\t" ? "tabs" : "spaces"}`,
      };
    }
    out.push(file.char.repeat(level * file.unit) + line.slice(own.length));
  }
  return { ok: true, lines: out };
}

/** One indentation character throughout, and the greatest common width (1 for tabs). */
function styleOf(indents: readonly string[]): Style | null {
  let char: " " | "\t" | null = null;
  let unit = 0;
  for (const indent of indents) {
    if (indent === "") continue;
    const c = indent[0] as " " | "\t";
    if (indent !== c.repeat(indent.length) || (char !== null && c !== char)) return null;
    char = c;
    unit = gcd(unit, indent.length);
  }
  if (char === null) return null;
  return { char, unit: char === "\t" ? 1 : unit };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function inconsistency(pairs: readonly Pair[]): string {
  const first = pairs[0];
  const other = pairs.find((p) => !sameOffset(first, p)) ?? pairs[pairs.length - 1];
  return `its indentation differs from the file's by different amounts on different lines ` +
    `(old line ${first.at + 1}: the file has ${describe(first.file)}, you wrote ` +
    `${describe(first.model)}; old line ${other.at + 1}: the file has ` +
    `${describe(other.file)}, you wrote ${describe(other.model)})`;
}

function sameOffset(a: Pair, b: Pair): boolean {
  return a.file.length - a.model.length === b.file.length - b.model.length;
}

/** `4 spaces`, `2 tabs`, `no indentation`, `1 tab and 2 spaces`. */
export function describe(indent: string): string {
  if (indent === "") return "no indentation";
  const tabs = [...indent].filter((c) => c === "\t").length;
  const spaces = indent.length - tabs;
  const parts: string[] = [];
  if (tabs > 0) parts.push(`${tabs} tab${tabs === 1 ? "" : "s"}`);
  if (spaces > 0) parts.push(`${spaces} space${spaces === 1 ? "" : "s"}`);
  return parts.join(" and ");
}

function clip(s: string): string {
  return s.length > 60 ? s.slice(0, 57) + "…" : s;
}
