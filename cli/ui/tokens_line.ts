/**
 * The dim line after each reply: tokens in and out, and how much of the
 * context window the conversation takes. Counts the server did not report
 * (estimated locally) are marked with `~`.
 *
 * @example
 * ```ts
 * tokensLine({ promptTokens: 1200, completionTokens: 80, totalTokens: 1280 }, { used: 1280, window: 128000 });
 * // "tokens 1,200 in / 80 out · context 1,280 / 128,000 (1%)"
 * ```
 * @module
 */
import type { Usage } from "../../interfaces/agent.ts";

/** `1,234`. Grouped by hand: the first `toLocaleString` costs ~25 ms (ICU set-up) on turn 1. */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** The text of the tokens line (without colour or indentation). */
export function tokensLine(usage: Usage, context?: { used: number; window: number }): string {
  const mark = usage.estimated ? "~" : "";
  let line = `tokens ${mark}${formatCount(usage.promptTokens)} in / ` +
    `${mark}${formatCount(usage.completionTokens)} out`;
  if (context && context.window > 0) {
    const share = Math.round((context.used / context.window) * 100);
    line += ` · context ${mark}${formatCount(context.used)} / ${formatCount(context.window)} ` +
      `(${share}%)`;
  }
  return line;
}
