/**
 * Reads edit blocks out of a reply: `<<<FILE: path>>>`, `<<<FILE: [NEW]
 * path>>>`, `<<<DIFF: path>>>` (each closed by `<<<END>>>`) and the one-line
 * `<<<DELETE: path>>>`, anywhere among prose or inside ``` fences.
 *
 * A header or `<<<END>>>` counts only as a whole line (surrounding whitespace
 * and `\r` ignored); the path is trimmed and may contain spaces. A FILE/NEW
 * body is every line between header and END, each ending in a newline.
 *
 * @example
 * ```ts
 * const r = parseBlocks("Here:\n<<<DELETE: old.txt>>>\n");
 * if (r.ok) r.blocks[0]; // { kind: "delete", path: "old.txt", index: 1, line: 2 }
 * ```
 * @module
 */
import { type Hunk, parseHunks } from "./blocks_diff.ts";

/** One edit block; `index` counts blocks from 1, `line` is its header's line (from 1). */
export type EditBlock =
  | { kind: "file"; path: string; body: string; index: number; line: number }
  | { kind: "new"; path: string; body: string; index: number; line: number }
  | { kind: "diff"; path: string; hunks: Hunk[]; index: number; line: number }
  | { kind: "delete"; path: string; index: number; line: number };

/** Why a reply's blocks were not applied. */
export type BlockErrorKind = "hunk_not_found" | "ambiguous" | "file_not_found" | "unclosed";

/** A failure, naming the block (from 1) and saying why in a sentence for the model. */
export interface BlockError {
  error: BlockErrorKind;
  block: number;
  path: string;
  message: string;
}

/** The blocks of a reply, or the block that has no `<<<END>>>`. */
export type ParsedBlocks =
  | { ok: true; blocks: EditBlock[] }
  | ({ ok: false } & BlockError);

type HeaderKind = "file" | "new" | "diff" | "delete";

const HEADER = /^<<<\s*(FILE|DIFF|DELETE)\s*:(.*)>>>$/i;
const END = /^<<<\s*END\s*>>>$/i;
const NEW_MARK = /^\[\s*NEW\s*\]\s*/i;

/** A line with surrounding whitespace (and so any `\r`) removed. */
export function bare(line: string): string {
  return line.trim();
}

/** Whether `line` is `<<<END>>>` as a whole line. */
export function isEndLine(line: string): boolean {
  return END.test(bare(line));
}

/** The block a whole line opens, or null when it is not a block header. */
export function readHeader(line: string): { kind: HeaderKind; path: string } | null {
  const m = HEADER.exec(bare(line));
  if (!m) return null;
  const word = m[1].toUpperCase();
  let path = cleanPath(m[2]);
  let kind: HeaderKind = word === "DIFF" ? "diff" : word === "DELETE" ? "delete" : "file";
  if (kind === "file" && NEW_MARK.test(path)) {
    kind = "new";
    path = cleanPath(path.replace(NEW_MARK, ""));
  }
  return path === "" ? null : { kind, path };
}

/** Trims a header path and drops quotes or backticks around it. */
function cleanPath(raw: string): string {
  const p = raw.trim();
  const m = /^(["'`])(.*)\1$/.exec(p);
  return (m ? m[2] : p).trim();
}

/** Whether `text` holds at least one edit block header. */
export function hasEditBlocks(text: string): boolean {
  if (!text.includes("<<<")) return false;
  return text.split("\n").some((l) => readHeader(l) !== null);
}

/** Reads every block of `text`, in order. */
export function parseBlocks(text: string): ParsedBlocks {
  const lines = text.split("\n");
  const blocks: EditBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = readHeader(lines[i]);
    if (!head) continue;
    const index = blocks.length + 1;
    const at = { path: head.path, index, line: i + 1 };
    if (head.kind === "delete") {
      blocks.push({ kind: "delete", ...at });
      continue;
    }
    const end = findEnd(lines, i + 1);
    if (end.kind !== "end") {
      const why = end.kind === "header"
        ? `a new block starts at line ${end.at + 1} before its <<<END>>> line`
        : "it has no <<<END>>> line";
      return {
        ok: false,
        error: "unclosed",
        block: index,
        path: head.path,
        message: `Block ${index} (${label(head.kind)} ${head.path}) is not closed: ${why}`,
      };
    }
    const body = lines.slice(i + 1, end.at);
    if (head.kind === "diff") blocks.push({ kind: "diff", ...at, hunks: parseHunks(body) });
    else blocks.push({ kind: head.kind, ...at, body: body.map((l) => l + "\n").join("") });
    i = end.at;
  }
  return { ok: true, blocks };
}

function findEnd(
  lines: readonly string[],
  from: number,
): { kind: "end" | "header"; at: number } | { kind: "eof" } {
  for (let j = from; j < lines.length; j++) {
    if (isEndLine(lines[j])) return { kind: "end", at: j };
    if (readHeader(lines[j]) !== null) return { kind: "header", at: j };
  }
  return { kind: "eof" };
}

/** How a block kind is written in messages: `FILE`, `NEW`, `DIFF`, `DELETE`. */
export function label(kind: HeaderKind): string {
  return kind === "new" ? "NEW" : kind.toUpperCase();
}

/** The paths a reply's blocks touch, in first-seen order (also from an unclosed reply). */
export function blockPaths(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split("\n")) {
    const head = readHeader(line);
    if (head) seen.add(head.path);
  }
  return [...seen];
}
