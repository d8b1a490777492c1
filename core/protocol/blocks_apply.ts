/**
 * Applies parsed edit blocks, in order, to file contents read through a
 * function: pure, so it can be tested without a disk. Blocks see the result
 * of the blocks before them; any failure means nothing is changed (the
 * caller writes only a successful result).
 *
 * @example
 * ```ts
 * const parsed = parseBlocks(reply);
 * if (parsed.ok) {
 *   const r = await applyBlocks(parsed.blocks, (p) => files.get(p) ?? null);
 *   if (r.ok) for (const c of r.changes) console.log(c.path, c.after === null ? "deleted" : "written");
 * }
 * ```
 * @module
 */
import { posix } from "node:path";
import { applyHunks, eolOf, type HunkFailure, toLines } from "./blocks_diff.ts";
import { type BlockError, type EditBlock, label } from "./blocks_parse.ts";

/** One file's change: `before`/`after` are null when the file is absent. */
export interface FileEdit {
  path: string;
  before: string | null;
  after: string | null;
}

/** The changed files in first-touched order, or the first block that failed. */
export type AppliedBlocks =
  | { ok: true; changes: FileEdit[] }
  | ({ ok: false } & BlockError);

/** Reads a text file by its (normalized) path; null when it is absent or not a text file. */
export type ReadText = (path: string) => string | null | Promise<string | null>;

/** The key a path is known by: `/` separators, `.` and `..` folded, no leading `./`. */
export function normalizeBlockPath(path: string): string {
  const n = posix.normalize(path.replaceAll("\\", "/"));
  return n.startsWith("./") ? n.slice(2) : n;
}

interface State {
  before: string | null;
  now: string | null;
}

/** Applies `blocks` in order; the result holds only files whose content changed. */
export async function applyBlocks(
  blocks: readonly EditBlock[],
  read: ReadText,
): Promise<AppliedBlocks> {
  const files = new Map<string, State>();
  for (const b of blocks) {
    const key = normalizeBlockPath(b.path);
    let s = files.get(key);
    if (!s) {
      const text = await read(key);
      s = { before: text, now: text };
      files.set(key, s);
    }
    const failed = applyOne(b, s);
    if (failed) return { ok: false, ...failed };
  }
  const changes: FileEdit[] = [];
  for (const [path, s] of files) {
    if (s.before !== s.now) changes.push({ path, before: s.before, after: s.now });
  }
  return { ok: true, changes };
}

function applyOne(b: EditBlock, s: State): BlockError | null {
  if (b.kind === "new") {
    s.now = s.now === null ? b.body : matchFile(b.body, s.now);
    return null;
  }
  if (s.now === null) return missing(b);
  if (b.kind === "delete") s.now = null;
  else if (b.kind === "file") s.now = matchFile(b.body, s.now);
  else {
    if (b.hunks.length === 0) {
      return fault(b, "hunk_not_found", "it holds no hunk (lines starting with @@, space, - or +)");
    }
    const r = applyHunks(s.now, b.hunks);
    if (!r.ok) return hunkError(b, r.failure);
    s.now = r.text;
  }
  return null;
}

/**
 * A replacement body in the replaced file's style: its line breaks (CRLF or
 * LF, when it has any) and its byte-order mark.
 */
function matchFile(body: string, old: string): string {
  let text = body;
  const oldLines = toLines(old);
  if (oldLines.some((l) => l.eol !== "")) {
    const eol = eolOf(oldLines);
    text = toLines(text).map((l) => l.text + (l.eol === "" ? "" : eol)).join("");
  }
  if (old.startsWith("\uFEFF") && !text.startsWith("\uFEFF")) text = "\uFEFF" + text;
  return text;
}

function missing(b: EditBlock): BlockError {
  const hint = b.kind === "file" ? `; to create it, use <<<FILE: [NEW] ${b.path}>>>` : "";
  return fault(b, "file_not_found", `"${b.path}" does not exist or is not a text file${hint}`);
}

function hunkError(b: EditBlock, f: HunkFailure): BlockError {
  if (f.kind === "hunk_not_found") {
    return fault(
      b,
      "hunk_not_found",
      `hunk ${f.hunk} was not found: its context and removed lines do not occur in the file ` +
        `as one run of lines (its first old line is "${clip(f.first)}")`,
    );
  }
  if (f.kind === "indentation") {
    return fault(
      b,
      "hunk_not_found",
      `hunk ${f.hunk} matches only with indentation ignored, and ${f.reason}; copy the ` +
        `context and removed lines with their exact indentation`,
    );
  }
  const where = f.lines.length > 0
    ? `it matches at lines ${f.lines.join(", ")}`
    : "it adds lines to a non-empty file without a line number";
  return fault(
    b,
    "ambiguous",
    `hunk ${f.hunk} is ambiguous: ${where}; add context lines or give the right @@ -line number`,
  );
}

function fault(b: EditBlock, error: BlockError["error"], why: string): BlockError {
  return {
    error,
    block: b.index,
    path: b.path,
    message: `Block ${b.index} (${label(b.kind)} ${b.path}): ${why}`,
  };
}

function clip(text: string): string {
  return text.length > 80 ? text.slice(0, 77) + "..." : text;
}
