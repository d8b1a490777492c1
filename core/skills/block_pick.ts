/**
 * Which blocks of a skill's body one answer of `use_skill` sends: whole
 * blocks in order while they fit the budget, a first block too big alone cut
 * at a line, blocks already sent left out (and named) — for `disclosure.ts`.
 *
 * @module
 */
import type { Block } from "./sections.ts";
import { cutToTokens, type TokenCounter } from "./tokens.ts";

/** What one answer sends of a body's blocks. */
export interface Pick {
  send: Block[];
  texts: string[];
  repeated: Block[];
  cut: boolean;
}

/** Whole blocks in order while they fit; a first block too big alone is cut at a line. */
export function pickBlocks(
  blocks: readonly Block[],
  sent: ReadonlySet<number>,
  budget: number,
  count: TokenCounter,
): Pick {
  const pick: Pick = { send: [], texts: [], repeated: [], cut: false };
  let used = 0;
  for (const b of blocks) {
    if (sent.has(b.index)) {
      pick.repeated.push(b);
      continue;
    }
    if (used + b.tokens <= budget) {
      pick.send.push(b);
      pick.texts.push(b.text);
      used += b.tokens;
      continue;
    }
    pick.cut = true;
    if (pick.send.length === 0) {
      pick.send.push(b);
      pick.texts.push(
        cutToTokens(b.text, budget, count) +
          `\n[This part has no heading to cut at: the rest of it (about ${
            b.tokens - budget
          } tokens) is not sent.]`,
      );
    }
    break;
  }
  return pick;
}

/** Tokens kept for the table of contents of `blocks`. */
export function tocReserve(blocks: readonly Block[]): number {
  return 60 + 12 * blocks.filter((b) => b.level > 0).length;
}

/** Tokens of `blocks` together. */
export function sum(blocks: readonly Block[]): number {
  return blocks.reduce((n, b) => n + b.tokens, 0);
}

/** The blocks' titles, quoted, for a reminder. */
export function titlesOf(blocks: readonly Block[]): string {
  return blocks.map((b) => (b.title ? `"${b.title}"` : "the introduction")).join(", ");
}
