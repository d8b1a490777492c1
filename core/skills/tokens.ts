/**
 * Token counts for skill and project budgets: the cheap estimate of
 * `core/llm/token_estimate.ts`, behind the promise-returning shape callers
 * already use.
 *
 * @example
 * ```ts
 * const count = await tokenCounter();
 * count("Hello there"); // 2
 * ```
 * @module
 */

import { estimateTokens } from "../llm/token_estimate.ts";

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

const COUNTER: Promise<TokenCounter> = Promise.resolve(estimateTokens);

/** The shared counter. */
export function tokenCounter(): Promise<TokenCounter> {
  return COUNTER;
}

/** Cuts `text` to at most `max` tokens at a line boundary (at a character boundary if one line is too long). */
export function cutToTokens(text: string, max: number, count: TokenCounter): string {
  if (count(text) <= max) return text;
  const lines = text.split("\n");
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(lines.slice(0, mid).join("\n")) <= max) lo = mid;
    else hi = mid - 1;
  }
  if (lo > 0) return lines.slice(0, lo).join("\n");
  let a = 0;
  let b = lines[0].length;
  while (a < b) {
    const mid = Math.ceil((a + b) / 2);
    if (count(lines[0].slice(0, mid)) <= max) a = mid;
    else b = mid - 1;
  }
  return lines[0].slice(0, a);
}
