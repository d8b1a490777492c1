/**
 * A SKILL.md body as blocks cut at Markdown headings, so a long body can be
 * sent in parts with a table of contents, and one section asked for by name.
 *
 * @example
 * ```ts
 * const blocks = splitBlocks(body, count);
 * const range = findSection(blocks, "Colours"); // the heading and its sub-sections
 * ```
 * @module
 */
import type { TokenCounter } from "./tokens.ts";

/** Text from one heading to the next heading of any level (or the text before the first heading). */
export interface Block {
  index: number;
  /** 1–6 for a heading, 0 for the text before the first heading. */
  level: number;
  /** The heading text; "" for the text before the first heading. */
  title: string;
  text: string;
  tokens: number;
}

/** A section: blocks `[start, end)` (a heading with its sub-sections). */
export interface SectionRange {
  start: number;
  end: number;
}

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;
const FENCE = /^[ \t]*(```|~~~)/;

/** Splits a Markdown body at its headings (headings inside code fences do not count). */
export function splitBlocks(body: string, count: TokenCounter): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  let level = 0;
  let title = "";
  let fence: string | null = null;
  const flush = () => {
    const text = lines.join("\n").replace(/\n+$/, "");
    if (level > 0 || text.trim() !== "") {
      blocks.push({ index: blocks.length, level, title, text, tokens: count(text) });
    }
    lines = [];
  };
  for (const line of body.replace(/\r\n/g, "\n").split("\n")) {
    const f = FENCE.exec(line);
    if (f) fence = fence === null ? f[1] : fence === f[1] ? null : fence;
    const h = fence === null && !f ? HEADING.exec(line) : null;
    if (h) {
      flush();
      level = h[1].length;
      title = h[2].trim();
    }
    lines.push(line);
  }
  flush();
  return blocks;
}

/** The blocks of the section whose heading matches `query`, or undefined. */
export function findSection(blocks: readonly Block[], query: string): SectionRange | undefined {
  const want = normalize(query);
  if (want === "") return undefined;
  let i = blocks.findIndex((b) => b.level > 0 && normalize(b.title) === want);
  if (i < 0) i = blocks.findIndex((b) => b.level > 0 && normalize(b.title).startsWith(want));
  if (i < 0) return undefined;
  let end = i + 1;
  while (end < blocks.length && blocks[end].level > blocks[i].level) end++;
  return { start: i, end };
}

/** The headings, indented by level, with their size and whether they were sent. */
export function tableOfContents(
  blocks: readonly Block[],
  sent: ReadonlySet<number>,
): string {
  const top = Math.min(...blocks.filter((b) => b.level > 0).map((b) => b.level));
  return blocks
    .filter((b) => b.level > 0)
    .map((b) => {
      const indent = "  ".repeat(Math.max(0, b.level - top));
      const mark = sent.has(b.index) ? "sent" : `${b.tokens} tokens`;
      return `${indent}- ${b.title} (${mark})`;
    })
    .join("\n");
}

/** Lower case, markup and punctuation dropped, single spaces. */
function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/^#+\s*/, "")
    .replace(/[`*_[\]()"'.:,!?]/g, "")
    .replace(/[-\s]+/g, " ")
    .trim();
}
