/**
 * Search-and-replace for the edit tools: parsing SEARCH/REPLACE blocks and
 * applying replacements, exactly first, then with trailing whitespace
 * ignored, then with indentation ignored (the replacement moved by the same
 * offset the match needed, or refused when that offset is not consistent).
 * Pure functions over strings; all-or-nothing per call.
 *
 * @example
 * ```ts
 * const r = applyReplacements("a\n  b\n", [{ search: "b", replace: "c" }]);
 * // r.ok && r.text === "a\n  c\n"
 * ```
 * @module
 */
import { indentShift } from "../protocol/indent_shift.ts";
import { isCrlf } from "./paths.ts";

/** One replacement: `search` must match exactly one place. */
export interface Replacement {
  search: string;
  replace: string;
}

/** How a block matched. */
export type MatchHow = "exact" | "trailing_whitespace" | "indentation" | "empty_file";

/** Where a block landed (1-based lines of the text after that block was applied). */
export interface AppliedEdit {
  how: MatchHow;
  startLine: number;
  /** Lines the replacement occupies (0 when it removed text). */
  lineCount: number;
}

/** The outcome of applying a list of replacements. */
export type ApplyOutcome =
  | { ok: true; text: string; edits: AppliedEdit[] }
  | {
    ok: false;
    /** 0-based index of the block that failed. */
    block: number;
    code: ApplyFailure;
    /** What went wrong, as sentences for the model. */
    detail: string;
  };

/** Why a block could not be applied. */
export type ApplyFailure = "empty_search" | "no_match" | "multiple_matches" | "indentation";

type StepResult =
  | { ok: true; text: string; edit: AppliedEdit }
  | { ok: false; code: ApplyFailure; detail: string };

/**
 * Applies `blocks` in order, each to the text as changed by those before it.
 * Line endings: a file whose line breaks are all CRLF keeps them (the blocks'
 * own line breaks do not matter).
 */
export function applyReplacements(text: string, blocks: readonly Replacement[]): ApplyOutcome {
  const crlf = isCrlf(text);
  let work = crlf ? text.replaceAll("\r\n", "\n") : text;
  const edits: AppliedEdit[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const search = blocks[i].search.replaceAll("\r\n", "\n");
    const replace = blocks[i].replace.replaceAll("\r\n", "\n");
    const step = applyOne(work, search, replace);
    if (!step.ok) return { ok: false, block: i, code: step.code, detail: step.detail };
    work = step.text;
    edits.push(step.edit);
  }
  return { ok: true, text: crlf ? work.replaceAll("\n", "\r\n") : work, edits };
}

function applyOne(text: string, search: string, replace: string): StepResult {
  if (search.trim() === "") {
    if (text.trim() === "") {
      return { ok: true, text: replace, edit: edit("empty_file", 1, replace) };
    }
    return {
      ok: false,
      code: "empty_search",
      detail: "The text to find is empty. Copy the lines to change from the file.",
    };
  }
  if (search.endsWith("\n") && replace !== "" && !replace.endsWith("\n")) replace += "\n";
  const exact = replaceExact(text, search, replace);
  if (exact) return exact;
  const fileLines = text.split("\n");
  // A final line break leaves an empty last element, which no search may claim.
  const usable = fileLines[fileLines.length - 1] === "" ? fileLines.length - 1 : fileLines.length;
  const searchLines = dropFinalEmpty(search.split("\n"));
  const replaceLines = replace === "" ? [] : dropFinalEmpty(replace.split("\n"));
  for (const how of ["trailing_whitespace", "indentation"] as const) {
    const same = how === "indentation" ? sameIgnoringIndent : sameIgnoringTrailing;
    const found = findLines(fileLines.slice(0, usable), searchLines, same);
    if (found.length > 1) return several(found.map((i) => i + 1));
    if (found.length === 1) {
      const at = found[0];
      const matched = fileLines.slice(at, at + searchLines.length);
      let lines = replaceLines;
      if (how === "indentation") {
        const moved = indentShift(searchLines, matched, replaceLines);
        if (!moved.ok) {
          return {
            ok: false,
            code: "indentation",
            detail: `It matches line ${at + 1} only with indentation ignored, and ${moved.reason}.`,
          };
        }
        lines = moved.lines;
      }
      if (matched[0].endsWith("\r")) lines = lines.map((l) => (l.endsWith("\r") ? l : l + "\r"));
      fileLines.splice(at, searchLines.length, ...lines);
      const out = fileLines.join("\n");
      return { ok: true, text: out, edit: { how, startLine: at + 1, lineCount: lines.length } };
    }
  }
  return { ok: false, code: "no_match", detail: closestHint(fileLines, searchLines) };
}

function replaceExact(text: string, search: string, replace: string): StepResult | null {
  const first = text.indexOf(search);
  if (first < 0) return null;
  const second = text.indexOf(search, first + search.length);
  if (second >= 0) {
    const lines: number[] = [];
    for (let i = first; i >= 0; i = text.indexOf(search, i + search.length)) {
      lines.push(lineAt(text, i));
    }
    return several(lines);
  }
  let end = first + search.length;
  // Removing whole lines removes their line break too, not leaving a blank line.
  const wholeLines = (first === 0 || text[first - 1] === "\n") && text[end] === "\n";
  if (replace === "" && wholeLines && !search.endsWith("\n")) end++;
  const out = text.slice(0, first) + replace + text.slice(end);
  return { ok: true, text: out, edit: edit("exact", lineAt(text, first), replace) };
}

function edit(how: MatchHow, startLine: number, replace: string): AppliedEdit {
  const body = replace.endsWith("\n") ? replace.slice(0, -1) : replace;
  return { how, startLine, lineCount: replace === "" ? 0 : body.split("\n").length };
}

function several(lines: number[]): StepResult {
  const shown = lines.slice(0, 8).join(", ") + (lines.length > 8 ? ", …" : "");
  return {
    ok: false,
    code: "multiple_matches",
    detail: `It matches ${lines.length} places (lines ${shown}). ` +
      "Include more surrounding lines so that it matches exactly one place.",
  };
}

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function dropFinalEmpty(lines: string[]): string[] {
  return lines.length > 1 && lines[lines.length - 1] === "" ? lines.slice(0, -1) : lines;
}

function sameIgnoringTrailing(a: string, b: string): boolean {
  return a.trimEnd() === b.trimEnd();
}

function sameIgnoringIndent(a: string, b: string): boolean {
  return a.trim() === b.trim();
}

/** Start indexes of every run of `fileLines` that equals `want` line by line. */
function findLines(
  fileLines: readonly string[],
  want: readonly string[],
  same: (a: string, b: string) => boolean,
): number[] {
  const found: number[] = [];
  for (let i = 0; i + want.length <= fileLines.length; i++) {
    let k = 0;
    while (k < want.length && same(fileLines[i + k], want[k])) k++;
    if (k === want.length) found.push(i);
  }
  return found;
}

function closestHint(fileLines: readonly string[], searchLines: readonly string[]): string {
  const first = searchLines.findIndex((l) => l.trim() !== "");
  const want = searchLines[first].trim();
  let best = { at: -1, len: 0 };
  for (let i = 0; i < fileLines.length; i++) {
    if (fileLines[i].trim() !== want) continue;
    let k = 0;
    while (
      first + k < searchLines.length && i + k < fileLines.length &&
      fileLines[i + k].trim() === searchLines[first + k].trim()
    ) k++;
    if (k > best.len) best = { at: i, len: k };
  }
  if (best.at < 0) {
    return `No line of the file matches its first line ("${clip(want)}").`;
  }
  const fileAt = best.at + best.len;
  const searchAt = first + best.len;
  if (searchAt >= searchLines.length) {
    return `It is close to line ${best.at + 1} but does not match there.`;
  }
  const has = fileAt < fileLines.length
    ? `"${clip(fileLines[fileAt].trim())}"`
    : "the end of the file";
  return `The closest place starts at line ${best.at + 1}, but line ${fileAt + 1} differs: ` +
    `the file has ${has} where you wrote "${clip(searchLines[searchAt].trim())}".`;
}

function clip(s: string): string {
  return s.length > 120 ? s.slice(0, 117) + "…" : s;
}

/** Parsed blocks, or why the diff could not be read. */
export type ParsedDiff = { ok: true; blocks: Replacement[] } | { ok: false; message: string };

const SEARCH_MARK = /^\s*(?:<{5,}|-{5,})\s*SEARCH\s*$/;
const DIVIDER = /^\s*={5,}\s*$/;
const REPLACE_MARK = /^\s*(?:>{5,}|\+{5,})\s*REPLACE\s*$/;

/** The usage the model is shown when its diff is malformed. */
export const DIFF_USAGE =
  "<<<<<<< SEARCH\nexact lines from the file\n=======\nnew lines\n>>>>>>> REPLACE";

/** Reads `<<<<<<< SEARCH … ======= … >>>>>>> REPLACE` blocks; text between blocks is ignored. */
export function parseSearchReplace(diff: string): ParsedDiff {
  const blocks: Replacement[] = [];
  let state: "outside" | "search" | "replace" = "outside";
  let search: string[] = [];
  let replace: string[] = [];
  const lines = diff.replaceAll("\r\n", "\n").split("\n");
  const bad = (why: string): ParsedDiff => ({
    ok: false,
    message: `Block ${
      blocks.length + 1
    } of the diff ${why}. Each block must look like:\n${DIFF_USAGE}`,
  });
  for (const line of lines) {
    if (state === "outside") {
      if (SEARCH_MARK.test(line)) [state, search, replace] = ["search", [], []];
    } else if (state === "search") {
      if (DIVIDER.test(line)) state = "replace";
      else if (SEARCH_MARK.test(line) || REPLACE_MARK.test(line)) {
        return bad("has no ======= line between its SEARCH and REPLACE parts");
      } else search.push(line);
    } else if (REPLACE_MARK.test(line)) {
      blocks.push({ search: search.join("\n"), replace: replace.join("\n") });
      state = "outside";
    } else if (SEARCH_MARK.test(line) || DIVIDER.test(line)) {
      return bad("is not closed with >>>>>>> REPLACE");
    } else replace.push(line);
  }
  if (state === "search") return bad("has no ======= line");
  if (state === "replace") return bad("is not closed with >>>>>>> REPLACE");
  if (blocks.length === 0) {
    return { ok: false, message: `The diff has no SEARCH/REPLACE block. Use:\n${DIFF_USAGE}` };
  }
  return { ok: true, blocks };
}
