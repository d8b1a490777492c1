/**
 * A small Markdown renderer for the terminal that works on a stream: each
 * line is rendered once it is complete (headings, lists, quotes, rules,
 * fenced code blocks, and inline emphasis, code spans, strike-through and
 * links). The unfinished line is shown raw while it streams and redrawn,
 * rendered, when its newline arrives.
 *
 * Colours come from the palette, so `NO_COLOR` turns styling off; the chat
 * uses this renderer only when stdout is a colour terminal.
 *
 * @example
 * ```ts
 * const md = new MarkdownStream(palette(true));
 * write(md.push("# Title\nSome **bold"));
 * write(md.push(" text**\n"));
 * write(md.flush(true)); // end of the reply
 * ```
 * @module
 */
import type { Palette } from "./colors.ts";

/** What a line's meaning depends on: whether a fenced code block is open. */
export interface BlockState {
  /** The opening fence (e.g. "```"), or null outside code blocks. */
  fence: string | null;
}

/** A fresh state, outside any block. */
export function blockState(): BlockState {
  return { fence: null };
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^(\s{0,3})>\s?(.*)$/;
const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const NUMBERED = /^(\s*)(\d{1,9}[.)])\s+(.*)$/;

/** Renders one complete line, updating `state` (code fences open and close). */
export function renderLine(line: string, state: BlockState, c: Palette): string {
  const fence = FENCE.exec(line);
  if (state.fence !== null) {
    const closing = fence && fence[1][0] === state.fence[0] &&
      fence[1].length >= state.fence.length && fence[2].trim() === "";
    if (closing) state.fence = null;
    return closing ? c.dim(line) : line;
  }
  if (fence && !(fence[1][0] === "`" && fence[2].includes("`"))) {
    state.fence = fence[1];
    return c.dim(line);
  }
  const heading = HEADING.exec(line);
  if (heading) {
    const text = inline(heading[2], c);
    return heading[1].length === 1 ? c.bold(c.underline(text)) : c.bold(text);
  }
  if (RULE.test(line)) return c.dim("─".repeat(40));
  const quote = QUOTE.exec(line);
  if (quote) return quote[1] + c.dim("│ ") + c.italic(inline(quote[2], c));
  const bullet = BULLET.exec(line);
  if (bullet) return `${bullet[1]}${c.dim("•")} ${inline(bullet[2], c)}`;
  const numbered = NUMBERED.exec(line);
  if (numbered) return `${numbered[1]}${c.dim(numbered[2])} ${inline(numbered[3], c)}`;
  return inline(line, c);
}

const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;

/** Inline Markdown: code spans first (their content is left alone), then the rest. */
export function inline(text: string, c: Palette): string {
  let out = "";
  let last = 0;
  for (const m of text.matchAll(CODE_SPAN)) {
    out += emphasis(text.slice(last, m.index), c) + c.cyan(m[2]);
    last = m.index + m[0].length;
  }
  return out + emphasis(text.slice(last), c);
}

function emphasis(s: string, c: Palette): string {
  return s
    .replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (_, t, u) => `${c.underline(t)} ${c.dim(`(${u})`)}`)
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, (_, t) => c.bold(t))
    .replace(/(^|[^\w])__(?=\S)(.+?)(?<=\S)__(?!\w)/g, (_, p, t) => p + c.bold(t))
    .replace(/(^|[^*\w])\*(?=[^\s*])([^*]*?[^\s*])\*(?![*\w])/g, (_, p, t) => p + c.italic(t))
    .replace(/(^|[^\w])_(?=[^\s_])([^_]*?[^\s_])_(?!\w)/g, (_, p, t) => p + c.italic(t))
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, (_, t) => c.strikethrough(t));
}

/** Options of {@link MarkdownStream}. */
export interface MarkdownStreamOptions {
  /** Show the unfinished line raw while it streams (default true). */
  live?: boolean;
  /** Terminal width, to erase a raw line that wrapped (default: the console's). */
  columns?: () => number;
}

/**
 * Renders a reply chunk by chunk. Every method returns the text to write,
 * including the escape codes that erase the raw unfinished line.
 */
export class MarkdownStream {
  #pending = "";
  #shown = "";
  #state = blockState();
  readonly #live: boolean;
  readonly #columns: () => number;

  constructor(readonly colors: Palette, o: MarkdownStreamOptions = {}) {
    this.#live = o.live ?? true;
    this.#columns = o.columns ?? consoleColumns;
  }

  /** Adds streamed text: complete lines come back rendered, the rest raw (live). */
  push(chunk: string): string {
    if (chunk === "") return "";
    const lines = (this.#pending + chunk).split("\n");
    this.#pending = lines.pop()!;
    let out = lines.length ? this.#erase() : "";
    for (const line of lines) out += renderLine(line, this.#state, this.colors) + "\n";
    if (this.#live && this.#pending !== this.#shown) {
      out += this.#shown && this.#pending.startsWith(this.#shown) && lines.length === 0
        ? this.#pending.slice(this.#shown.length)
        : this.#erase() + this.#pending;
      this.#shown = this.#pending;
    }
    return out;
  }

  /**
   * Renders the unfinished line (without a newline), e.g. before a tool line.
   * `endOfReply` also closes any open code block.
   */
  flush(endOfReply = false): string {
    let out = this.#erase();
    if (this.#pending) out += renderLine(this.#pending, this.#state, this.colors);
    this.#pending = "";
    if (endOfReply) this.#state = blockState();
    return out;
  }

  /** Erases the raw line on screen, wrapped rows included. */
  #erase(): string {
    if (this.#shown === "") return "";
    const width = [...this.#shown.replaceAll("\t", "        ")].length;
    const rows = Math.max(1, Math.ceil(width / Math.max(1, this.#columns())));
    this.#shown = "";
    return "\r" + (rows > 1 ? `\x1b[${rows - 1}A` : "") + "\x1b[J";
  }
}

function consoleColumns(): number {
  try {
    return Deno.consoleSize().columns || 80;
  } catch {
    return 80;
  }
}
