/**
 * Token counts for skill budgets, with gpt-tokenizer (cl100k_base) loaded on
 * first use, so sessions without skills never pay for the import.
 *
 * @example
 * ```ts
 * const count = await tokenCounter();
 * count("Hello there"); // 2
 * ```
 * @module
 */

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

let loading: Promise<TokenCounter> | null = null;

/** The shared counter (the tokenizer is imported once, lazily). */
export function tokenCounter(): Promise<TokenCounter> {
  loading ??= import("gpt-tokenizer/encoding/cl100k_base").then((m) => (text: string) => {
    if (text === "") return 0;
    try {
      return m.countTokens(text);
    } catch {
      // text with special-token markers: a rough estimate is enough for a budget
      return Math.ceil(text.length / 4);
    }
  });
  return loading;
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
