/**
 * How a reply's reasoning is shown: folded by default (one dim line with its
 * length), in full and dimmed with `--show-reasoning` or `/reasoning on`.
 * `/reasoning` alone prints the last reasoning in full.
 *
 * @module
 */
import { visible } from "../../core/protocol/visible.ts";
import type { Palette } from "./colors.ts";
import { formatCount } from "./tokens_line.ts";

/** Shared between the renderer and the `/reasoning` command. */
export interface ReasoningDisplay {
  /** Show reasoning in full as it streams. */
  full: boolean;
  /** The last reply's reasoning. */
  last: string;
}

/** The chat's and `run`'s display state (one process runs one of them). */
export const REASONING: ReasoningDisplay = { full: false, last: "" };

/** Folds or shows one reply's reasoning as it streams. */
export class ReasoningFold {
  #state: ReasoningDisplay;
  #c: Palette;
  #tty: boolean;
  #chars = 0;
  #open = false;

  constructor(state: ReasoningDisplay, c: Palette, tty: boolean) {
    this.#state = state;
    this.#c = c;
    this.#tty = tty;
  }

  /** Whether reasoning is streaming (a line is open). */
  get open(): boolean {
    return this.#open;
  }

  /**
   * More reasoning: returns the text to write. In full mode the text itself,
   * dimmed; folded on a terminal, a live line (`\r` + erase) with the length.
   */
  push(text: string): string {
    if (!this.#open) this.#state.last = "";
    this.#open = true;
    this.#state.last += text;
    this.#chars += text.length;
    if (this.#state.full) return this.#c.dim(visible(text));
    if (!this.#tty) return "";
    return `\r\x1b[2K${this.#c.dim(`∴ thinking… ${formatCount(this.#chars)} chars`)}`;
  }

  /** The reasoning ended: the closing line (empty when nothing was shown). */
  end(): string {
    if (!this.#open) return "";
    const chars = this.#chars;
    this.#open = false;
    this.#chars = 0;
    if (this.#state.full) return "\n";
    const line = this.#c.dim(`∴ reasoning: ${formatCount(chars)} chars (/reasoning shows it)`);
    return `${this.#tty ? "\r\x1b[2K" : ""}${line}\n`;
  }
}

/** `/reasoning [on|off]`: switches full display, or prints the last reasoning. */
export function slashReasoning(arg: string, c: Palette, out: (t: string) => void): void {
  if (arg === "on" || arg === "off") {
    REASONING.full = arg === "on";
    out(c.dim(`reasoning is ${REASONING.full ? "shown in full" : "folded"}\n`));
    return;
  }
  if (arg !== "") {
    out(c.yellow(`Unknown argument "${arg}": use /reasoning, /reasoning on or /reasoning off\n`));
    return;
  }
  const last = REASONING.last.trim();
  out(last === "" ? c.dim("No reasoning yet\n") : `${c.dim(visible(last))}\n`);
}
