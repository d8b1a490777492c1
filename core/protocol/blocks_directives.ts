/**
 * The copy/paste bridge's own directives, each a whole line:
 * `<<<REQUEST_FILE: path>>>`, a `<<<REQUEST_FILES>>>` list (one path a line,
 * up to `<<<END>>>`), `<<<SWITCH_MODE: browse|edit>>>`, and a closing
 * `<<<CONTINUE>>>` block (remaining files listed, `<<<END>>>` optional) that
 * asks minoc to fetch the rest of a long answer.
 *
 * @example
 * ```ts
 * readDirectives("<<<REQUEST_FILE: a.ts>>>\n<<<SWITCH_MODE: edit>>>");
 * // { files: ["a.ts"], mode: "edit" }
 * ```
 * @module
 */
import { bare, isEndLine } from "./blocks_parse.ts";

/** The two bridge modes: a project summary only, or full file contents. */
export type BridgeMode = "browse" | "edit";

/** What a reply asks of the bridge. */
export interface Directives {
  /** Files the chat asked for, in order, without duplicates. */
  files: string[];
  /** The last mode switch in the reply. */
  mode?: BridgeMode;
}

const REQUEST_ONE = /^<<<\s*REQUEST_FILE\s*:(.*)>>>$/i;
const REQUEST_MANY = /^<<<\s*REQUEST_FILES\s*>>>$/i;
const SWITCH = /^<<<\s*SWITCH_MODE\s*:\s*(browse|edit)\s*>>>$/i;
const CONTINUE = /^<<<\s*CONTINUE\s*>>>$/i;

/** Reads the file requests and mode switch of a reply. */
export function readDirectives(text: string): Directives {
  const files = new Set<string>();
  let mode: BridgeMode | undefined;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = bare(lines[i]);
    const one = REQUEST_ONE.exec(line);
    if (one) {
      const p = listItem(one[1]);
      if (p) files.add(p);
      continue;
    }
    const sw = SWITCH.exec(line);
    if (sw) {
      mode = sw[1].toLowerCase() as BridgeMode;
      continue;
    }
    if (!REQUEST_MANY.test(line)) continue;
    for (i++; i < lines.length && !isEndLine(lines[i]); i++) {
      const p = listItem(lines[i]);
      if (p) files.add(p);
    }
  }
  return { files: [...files], ...(mode ? { mode } : {}) };
}

/** Whether a reply holds any bridge directive. */
export function hasDirectives(text: string): boolean {
  const d = readDirectives(text);
  return d.files.length > 0 || d.mode !== undefined;
}

/** The last mode switch over several replies (oldest first), else `fallback`. */
export function modeOf(replies: readonly string[], fallback: BridgeMode): BridgeMode {
  let mode = fallback;
  for (const r of replies) {
    if (!r.includes("SWITCH_MODE")) continue;
    mode = readDirectives(r).mode ?? mode;
  }
  return mode;
}

/** A path from a list line: bullets, numbering, quotes and backticks dropped. */
function listItem(raw: string): string {
  let p = raw.trim().replace(/^(?:[-*+]|\d+[.)])\s+/, "").trim();
  const m = /^(["'`])(.*)\1$/.exec(p);
  if (m) p = m[2].trim();
  return p;
}

/** An answer cut short: the text before `<<<CONTINUE>>>` and the files still to come. */
export interface Continued {
  before: string;
  remaining: string[];
}

/**
 * When `text` ends with a `<<<CONTINUE>>>` block (only whitespace after its
 * optional `<<<END>>>`), the text before it and the files it lists; else null.
 */
export function splitContinue(text: string): Continued | null {
  const lines = text.split("\n");
  let at = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (CONTINUE.test(bare(lines[i]))) {
      at = i;
      break;
    }
  }
  if (at < 0) return null;
  const remaining: string[] = [];
  for (let j = at + 1; j < lines.length; j++) {
    if (isEndLine(lines[j])) {
      if (lines.slice(j + 1).some((l) => l.trim() !== "")) return null;
      break;
    }
    const p = listItem(lines[j]);
    if (p) remaining.push(p);
  }
  return { before: lines.slice(0, at).join("\n"), remaining };
}

/** Joins an answer's parts: a line break between them unless one is already there. */
export function joinParts(before: string, more: string): string {
  if (before === "" || before.endsWith("\n")) return before + more;
  return `${before}\n${more}`;
}
