/**
 * The reply scanner: takes at most one tool call out of a model's reply while
 * it streams, in minoc's canonical form or any dialect open models are
 * trained on, and never from reasoning, inline code or a quoted example.
 *
 * Layers, each linear in the reply: reasoning is split off first
 * (`reasoning_split.ts`); the canonical scanner (`canonical_scan.ts`) reads
 * the visible text as it streams; the display hold keeps dialect calls off
 * the screen; at the end, one pass (`dialects.ts`) finds the calls written in
 * other dialects. Two calls, whatever their dialects, are
 * `multiple_tool_calls`. The result is the same for every chunking.
 *
 * @example
 * ```ts
 * const scanner = new CallScanner(tools);
 * for await (const chunk of stream) render(scanner.push(chunk));
 * const result = scanner.finish();
 * ```
 * @module
 */
import { canonical, multiple, proseWithout, takesSpan } from "./scan_pick.ts";
import { NOTHING, type StreamUpdate } from "./stream_update.ts";
import type { ParseResult, ToolSpec } from "../../interfaces/tool.ts";
import { CanonicalScanner } from "./canonical_scan.ts";
import { type DialectHit, findDialectCalls } from "./dialects.ts";
import { DisplayHold } from "./display_hold.ts";
import { ReasoningSplitter, type SplitUpdate } from "./reasoning_split.ts";
import type { Span } from "./dialect_mask.ts";
import { CallGuess } from "./call_guess.ts";
import { QuietRun } from "./quiet_run.ts";
import { type SpecIndex, specIndex } from "./spec_index.ts";
import { TextStore } from "./text_store.ts";

export type { StreamUpdate };

const NONE: readonly number[] = [];

/**
 * Scans one reply chunk by chunk.
 *
 * @example
 * ```ts
 * const s = new CallScanner(specs);
 * s.push("<think>plan</think>\n<tool_call>\n{\"name\": \"read_file\", ");
 * s.push("\"arguments\": {\"path\": \"a.md\"}}\n</tool_call>");
 * s.finish(); // { kind: "call", call: { tool: "read_file", ... }, dialect: "hermes_json" }
 * s.reasoning(); // "plan"
 * ```
 */
export class CallScanner {
  #tools: SpecIndex;
  #split: ReasoningSplitter;
  #canon: CanonicalScanner;
  #hold: DisplayHold;
  /** The visible text (shared with the canonical scanner, which reads it). */
  #visible = new TextStore();
  #reasoning: string[] = [];
  #result: ParseResult | null = null;
  #final = "";
  #text = "";
  /** Every chunk as pushed, kept from a late `</think>` on (read again at the end). */
  #raw: string[] = [];
  /** A late `</think>` was met: prose is held until the end. */
  #late = false;
  /** Prose shown before that; prose held since. */
  #shown = 0;
  #suppressed = "";
  /** Where the chosen call lies in the visible text. */
  #span: Span | null = null;
  /** The live line for a call in another dialect: its tool, once known. */
  #guess: CallGuess;
  #probe = "";
  /** Chunks that can change nothing, kept unread (see {@link push}). */
  #quiet: QuietRun;

  /** `lateClose: false` never takes a `</think>` without an opener as the end of reasoning. */
  constructor(specs: readonly ToolSpec[], options: { lateClose?: boolean } = {}) {
    this.#split = new ReasoningSplitter({ orphans: options.lateClose !== false });
    this.#tools = specIndex(specs);
    this.#canon = new CanonicalScanner(specs, this.#visible);
    this.#quiet = new QuietRun(this.#visible, this.#split);
    this.#hold = new DisplayHold(this.#tools.names);
    this.#guess = new CallGuess(this.#tools.names);
  }

  /** Feeds the next chunk; returns what the terminal may show now. */
  push(chunk: string): StreamUpdate {
    const quiet = this.#quiet;
    let lt: number;
    if (!quiet.on) lt = chunk.indexOf("<");
    else {
      // The hot path while a call streams: text that can change nothing is only kept.
      const rest = quiet.take(chunk);
      if (rest === null) return NOTHING;
      chunk = rest;
      lt = quiet.lt;
    }
    quiet.handOn();
    const update = this.#push(chunk, lt);
    this.#settle();
    return update;
  }

  /** After a chunk that was read: whether the next ones may be kept unread, and what would matter. */
  #settle(): void {
    const canon = this.#canon;
    const quiet = this.#quiet;
    const layers = this.#result === null && !this.#late && this.#split.plain;
    const prose = canon.proseIdle && this.#hold.unread && this.#guess.done; // a held call, named
    quiet.on = layers && (prose || (canon.quiet && (!canon.dead || this.#guess.done)));
    quiet.ticks = prose;
    if (quiet.on) quiet.heedOnly(this.#split.heeds, canon.heeds, prose ? this.#hold.heeds : NONE);
  }

  /** {@link push} for a chunk that may change something; `lt` is where its first `<` stands. */
  #push(chunk: string, lt: number): StreamUpdate {
    if (this.#result !== null) throw new Error("CallScanner.push() called after finish()");
    if (chunk.length === 0) return NOTHING;
    if (this.#late) this.#raw.push(chunk);
    const split = this.#split;
    const plain = lt < 0;
    const only = plain || (lt + 1 < chunk.length && chunk.indexOf("<", lt + 1) >= 0) ? -1 : lt;
    const visible = plain ? split.feedPlain(chunk) : split.feed(chunk, only);
    if (split.reset || split.reasoning !== "") {
      if (!split.reset && visible === "") {
        this.#reasoning.push(split.reasoning);
        return { prose: "", reasoning: split.reasoning };
      }
      // Before the first reset, what was fed is the visible text so far and the held tag.
      if (split.reset) this.#raw = [this.#visible.text(), split.carried, chunk];
      const u = { visible, reasoning: split.reasoning, reset: split.reset, before: split.before };
      return this.#take(u);
    }
    // The hot path: visible text only, nothing allocated when nothing is shown.
    if (visible === "") return NOTHING;
    this.#visible.append(visible);
    if (this.#canon.dead) return this.#guessed(NOTHING, visible);
    const cu = visible !== chunk
      ? this.#canon.pushStored(visible)
      : plain
      ? this.#canon.pushPlain(visible)
      : this.#canon.pushStored(visible, only);
    if (cu.prose === "") {
      const u = cu.call === undefined ? NOTHING : { prose: "", call: cu.call };
      return this.#canon.dead ? this.#guessed(u, "") : u;
    }
    const update: StreamUpdate = { prose: this.#shows(this.#hold.push(cu.prose)) };
    if (cu.call !== undefined) update.call = cu.call;
    return this.#hold.holding ? this.#guessed(update, "") : update;
  }

  /**
   * While a call in another dialect streams (after `<tool_call>` and junk to the canonical scanner,
   * or held off the screen), names its tool once for the live line. `more`: the visible text just added.
   */
  #guessed(update: StreamUpdate, more: string): StreamUpdate {
    const guess = this.#guess;
    if (guess.done) return update;
    const at = this.#canon.junkAt;
    if (at >= 0) {
      const text = this.#visible;
      this.#probe = this.#probe === "" ? text.slice(at, text.length) : this.#probe + more;
    }
    const name = guess.look(at >= 0 ? this.#probe : this.#hold.held);
    return name === null ? update : { ...update, call: name };
  }

  /** Prose to show now; after a late `</think>`, nothing (it is held). */
  #shows(prose: string): string {
    if (this.#late) {
      this.#suppressed += prose;
      return "";
    }
    this.#shown += prose.length;
    return prose;
  }

  /** End of stream: the final result; identical for every chunking of the same text. */
  finish(): ParseResult {
    if (this.#result !== null) return this.#result;
    const quiet = this.#quiet;
    quiet.handOn();
    if (quiet.on && quiet.cut !== "") this.#push(quiet.cut, 0);
    quiet.on = false;
    const last = this.#take(this.#split.end());
    const canon = this.#canon.finish();
    const text = (this.#text = this.#visible.text());
    const skip = takesSpan(canon) ? this.#canon.span() : null;
    const hits = findDialectCalls(text, this.#tools.byName, skip, quiet.clear, quiet.noted);
    this.#result = this.#combine(canon, skip, hits, text, last.prose);
    if (this.#late) this.#result = this.#settleLate(this.#result);
    return this.#result;
  }

  /** Prose released only by the end of the stream. Valid after {@link finish}. */
  finalProse(): string {
    return this.#final;
  }

  /** The reply's reasoning (every block's text, in order). Valid after {@link finish}. */
  reasoning(): string {
    return this.#reasoning.join("").trim();
  }

  /** The reply without its reasoning. Valid after {@link finish}. */
  visibleText(): string {
    return this.#text;
  }

  #take(u: SplitUpdate): StreamUpdate {
    if (u.reset) {
      // Shown as it streamed (it could not be known as reasoning then); the rest is held.
      const before = this.#take({ visible: u.before ?? "", reasoning: "" });
      this.#restart();
      this.#late = true;
      const after = this.#take({ visible: u.visible, reasoning: u.reasoning });
      return { ...after, prose: before.prose };
    }
    if (u.reasoning !== "") this.#reasoning.push(u.reasoning);
    if (u.visible === "") {
      return u.reasoning === "" ? { prose: "" } : { prose: "", reasoning: u.reasoning };
    }
    this.#visible.append(u.visible);
    const cu = this.#canon.dead ? NOTHING : this.#canon.pushStored(u.visible);
    const prose = cu.prose === "" ? "" : this.#shows(this.#hold.push(cu.prose));
    const update: StreamUpdate = { prose };
    if (cu.call !== undefined) update.call = cu.call;
    if (u.reasoning !== "") update.reasoning = u.reasoning;
    return update;
  }

  /**
   * A `</think>` came without an opener: either the reply began inside reasoning, or the tag is
   * text inside a call's value (a file about such tags). The reply is read again without the
   * rule; when that reading's call holds the tag, it was content, else the text before it was.
   */
  #settleLate(inside: ParseResult): ParseResult {
    const other = new CallScanner(this.#tools.list, { lateClose: false });
    const first = other.push(this.#raw.join("")).prose;
    const result = other.finish();
    const at = this.#split.closerAt;
    const span = other.#span;
    if (span === null || at < span.start || at >= span.end) {
      this.#final = this.#suppressed + this.#final;
      return inside;
    }
    this.#reasoning = other.#reasoning;
    this.#text = other.#text;
    this.#final = (first + other.#final).slice(this.#shown);
    return result;
  }

  /** The reply began inside reasoning: what was visible so far was reasoning. */
  #restart(): void {
    this.#reasoning = [this.#visible.text() + this.#reasoning.join("")];
    this.#visible = new TextStore();
    this.#quiet.restart(this.#visible);
    this.#canon = new CanonicalScanner(this.#tools.list, this.#visible);
    this.#hold = new DisplayHold(this.#tools.names);
  }

  #combine(
    canon: ParseResult,
    skip: { start: number; end: number } | null,
    hits: DialectHit[],
    text: string,
    lastProse: string,
  ): ParseResult {
    const all = skip === null ? hits : [{ dialect: "canonical", ...skip, result: canon }, ...hits];
    all.sort((a, b) => a.start - b.start);
    const restProse = () => lastProse + this.#hold.flush() + this.#canon.finalProse();
    // The canonical scanner's own order of errors (unknown_tool, unclosed, multiple) holds.
    if (
      canon.kind === "error" &&
      (canon.error === "multiple_tool_calls" || all[0]?.dialect === "canonical")
    ) {
      this.#final = restProse();
      return canon;
    }
    if (all.length > 1) {
      this.#final = restProse();
      return multiple(all);
    }
    const hit = all[0];
    this.#span = hit === undefined ? null : { start: hit.start, end: hit.end };
    if (hit === undefined || hit.dialect === "canonical") {
      this.#final = restProse();
      return hit === undefined ? canon : canonical(canon, this.#tools.byName);
    }
    this.#final = proseWithout(text, this.#hold.released - lastProse.length, hit);
    return hit.result;
  }
}

/** Parses one whole reply; the same as feeding it to a {@link CallScanner} in one chunk. */
export function parseReply(text: string, specs: readonly ToolSpec[]): ParseResult {
  const scanner = new CallScanner(specs);
  scanner.push(text);
  return scanner.finish();
}
