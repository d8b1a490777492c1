/**
 * The canonical streaming tool-call scanner (wrapped by `xml.ts`, which adds
 * reasoning and the other dialects): pulls at most one XML tool call out of a
 * model's reply while it streams, shows the prose around it, and gives the
 * same result for every way the reply is cut into chunks.
 *
 * The rules (issue #3): a call starts at the first `<tool_call>` outside
 * inline code and `<thinking>`; `<NAME>` of a known tool follows; the call
 * ends at the first `</NAME>` followed by `</tool_call>`, else at the last
 * `</NAME>`; values are raw text (bulk values run to their last closing tag);
 * one call per reply. Errors, in order: `unknown_tool`, `unclosed`,
 * `multiple_tool_calls`, `missing_param`.
 *
 * @example
 * ```ts
 * const scanner = new CanonicalScanner(tools);
 * for await (const chunk of stream) render(scanner.push(chunk));
 * const result = scanner.finish();
 * ```
 * @module
 */
import { NOTHING, type StreamUpdate } from "./stream_update.ts";
import { specIndex } from "./spec_index.ts";
import type { ParseResult, ToolSpec } from "../../interfaces/tool.ts";
import { CallScanBody } from "./call_scan.ts";
import { callResult, failure } from "./call_result.ts";
import { type Opener, PROSE_FIRSTS, ProseScanner } from "./prose_scan.ts";
import { LT } from "./tags.ts";
import { TextStore } from "./text_store.ts";

export type { StreamUpdate };

const PROSE = 0;
const CALL = 1;
const AFTER = 2;
const DEAD = 3;
const NO_CODES: readonly number[] = [];

/**
 * Scans one reply chunk by chunk. Work is linear in the reply's length.
 *
 * @example
 * ```ts
 * const s = new CanonicalScanner(specs);
 * s.push("Saving.\n<tool_call><write_to_file><path>a.md</path>");
 * s.push("<content>hi</content></write_to_file></tool_call>");
 * s.finish(); // { kind: "call", call: { tool: "write_to_file", params: {...} } }
 * ```
 */
export class CanonicalScanner {
  #specs: ReadonlyMap<string, ToolSpec>;
  #store: TextStore;
  #mode = PROSE;
  #prose = new ProseScanner(0);
  #body: CallScanBody | null = null;
  #after: ProseScanner | null = null;
  #second: Opener | null = null;
  #opener: Opener | null = null;
  #emitted = 0;
  #held = "";
  #summary = "";
  #result: ParseResult | null = null;
  #final = "";

  /**
   * `store`, when given, is text its owner appends to before each
   * {@link pushStored} (the scanner then never appends to it itself), so a
   * caller that keeps the reply's text anyway does not keep it twice.
   */
  constructor(specs: readonly ToolSpec[], store?: TextStore) {
    this.#specs = specIndex(specs).byName;
    this.#store = store ?? new TextStore();
  }

  /** Feeds the next chunk; returns what the terminal may show now. */
  push(chunk: string): StreamUpdate {
    if (this.#result !== null) throw new Error("CanonicalScanner.push() called after finish()");
    if (chunk.length === 0) return NOTHING;
    this.#store.append(chunk);
    return this.pushStored(chunk);
  }

  /**
   * Like {@link push}, for a chunk already appended to the store given to the
   * constructor. `only`, when not -1, is where the chunk's only `<` stands.
   */
  pushStored(chunk: string, only = -1): StreamUpdate {
    if (this.#result !== null) throw new Error("CanonicalScanner.push() called after finish()");
    if (chunk.length === 0) return NOTHING;
    const base = this.#store.length - chunk.length;
    if (this.#mode === CALL) {
      // The hot path while a call streams: no prose, the summary rarely changes.
      const body = this.#body as CallScanBody;
      if (chunk.length === 1 && chunk.charCodeAt(0) !== LT && body.idle) return NOTHING;
      const i = body.scan(chunk, 0, base, only);
      if (body.phase === "body" && this.#held.length === 0 && body.summary === this.#summary) {
        return NOTHING;
      }
      this.#called(body);
      this.#feed(chunk, i, base);
    } else this.#feed(chunk, 0, base);
    return this.#update();
  }

  /** {@link pushStored} for a chunk without `<`: inside a call's body, between tags, it is not looked at. */
  pushPlain(chunk: string): StreamUpdate {
    if (this.#mode === CALL && this.#result === null && (this.#body as CallScanBody).idle) {
      return NOTHING;
    }
    return this.pushStored(chunk);
  }

  /** End of stream: the final result; identical for every chunking of the same text. */
  finish(): ParseResult {
    if (this.#result !== null) return this.#result;
    const total = this.#store.length;
    if (this.#mode === PROSE) {
      this.#prose.end();
      if (this.#prose.opener !== null) this.#startCall(this.#prose.opener, total);
    }
    if (this.#mode === AFTER) {
      const after = this.#after as ProseScanner;
      after.end();
      if (after.opener !== null) this.#stopAt(after.opener);
    }
    this.#body?.end();
    this.#result = this.#conclude(total);
    return this.#result;
  }

  /** Where `<tool_call>` starts when no tool element followed it, else -1. */
  get junkAt(): number {
    return this.#body?.phase === "junk" && this.#opener !== null ? this.#opener.start : -1;
  }

  /** Whether a chunk without `<` would change nothing: inside a call's body between tags, or {@link dead}. */
  get quiet(): boolean {
    return this.#mode === DEAD || (this.#mode === CALL && (this.#body as CallScanBody).idle);
  }

  /**
   * While {@link quiet} or {@link proseIdle}: the first letters of the tag names that count (by character
   * code; the same list while it does not change). A chunk whose every `<` or `</` is followed by another
   * character changes nothing.
   */
  get heeds(): readonly number[] {
    if (this.#mode === PROSE) return PROSE_FIRSTS;
    return this.#mode === CALL ? (this.#body as CallScanBody).firsts : NO_CODES;
  }

  /** Whether, in prose, a chunk with no backtick and no tag in {@link heeds} would change nothing. */
  get proseIdle(): boolean {
    return this.#mode === PROSE && this.#prose.idle;
  }

  /** Whether the rest of the reply can change nothing (junk after the opener, a second opener). */
  get dead(): boolean {
    return this.#mode === DEAD;
  }

  /** Where the call lies (absolute, end exclusive), or null when no `<tool_call>` opened one. After {@link finish}. */
  span(): { start: number; end: number } | null {
    const body = this.#body;
    if (body === null || this.#opener === null) return null;
    const total = this.#store.length;
    if (body.phase === "ended") return { start: this.#opener.start, end: body.callEnd };
    if (body.phase === "body" && body.lastCloseEnd >= 0) {
      return { start: this.#opener.start, end: body.lastCloseEnd };
    }
    return { start: this.#opener.start, end: total };
  }

  /**
   * Prose released only by the end of the stream (held back, or after a call closed without
   * `</tool_call>`). Valid after {@link finish}; every push's prose plus this is the reply without the call.
   */
  finalProse(): string {
    return this.#final;
  }

  #feed(chunk: string, i: number, base: number): void {
    while (i < chunk.length) {
      if (this.#mode === PROSE) {
        i = this.#prose.scan(chunk, i, base);
        const opener = this.#prose.opener;
        if (opener !== null) this.#startCall(opener, base + i);
      } else if (this.#mode === CALL) {
        const body = this.#body as CallScanBody;
        i = body.scan(chunk, i, base);
        this.#called(body);
      } else if (this.#mode === AFTER) {
        const after = this.#after as ProseScanner;
        i = after.scan(chunk, i, base);
        if (after.opener !== null) this.#stopAt(after.opener);
      } else return;
    }
  }

  /** After scanning call text: leaves the call mode once the call ended or turned out junk. */
  #called(body: CallScanBody): void {
    if (body.phase === "ended") {
      this.#mode = AFTER;
      this.#emitted = body.callEnd;
      this.#after = new ProseScanner(body.callEnd);
    } else if (body.phase === "junk") this.#mode = DEAD;
  }

  /** The opener is known; text after it up to `upTo` was already scanned as prose. */
  #startCall(opener: Opener, upTo: number): void {
    this.#opener = opener;
    this.#hold(opener.start);
    this.#mode = CALL;
    this.#body = new CallScanBody(this.#specs, (a, b) => this.#store.slice(a, b));
    if (opener.end < upTo) this.#feed(this.#store.slice(opener.end, upTo), 0, opener.end);
  }

  /** A second opener after the call: the reply is rejected; nothing more is shown. */
  #stopAt(second: Opener): void {
    this.#hold(second.start);
    this.#second = second;
    this.#mode = DEAD;
  }

  /** Keeps the prose up to `pos` for the next update. */
  #hold(pos: number): void {
    if (pos > this.#emitted) this.#held += this.#store.slice(this.#emitted, pos);
    this.#emitted = pos;
  }

  #update(): StreamUpdate {
    let safe = this.#emitted;
    if (this.#mode === PROSE) safe = this.#prose.safe();
    else if (this.#mode === AFTER) safe = (this.#after as ProseScanner).safe();
    this.#hold(safe);
    const prose = this.#held;
    this.#held = "";
    const summary = this.#body?.summary ?? "";
    if (summary === this.#summary) return prose.length === 0 ? NOTHING : { prose };
    this.#summary = summary;
    return { prose, call: summary };
  }

  /** The result, from the scan of the whole reply (`total` characters long). */
  #conclude(total: number): ParseResult {
    const body = this.#body;
    if (body === null) return this.#done({ kind: "none" }, total);
    const opened = "right after <tool_call>";
    if (body.phase === "junk") {
      return this.#done(
        failure("unknown_tool", `Expected a tool element such as <tool_name> ${opened}`),
        -1,
      );
    }
    if (body.phase === "name") {
      return this.#done(failure("unclosed", `The reply ended ${opened}`), -1);
    }
    const tool = body.tool;
    const name = body.name;
    let end = -1; // where the prose after the call stops; -1: the call runs to the end
    if (body.phase === "ended") end = this.#second === null ? total : this.#second.start;
    else if (body.lastClose >= 0) end = this.#tail(body.lastCloseEnd, total);
    if (tool === null) {
      return this.#done(failure("unknown_tool", `Unknown tool "${name}"`, name), end);
    }
    const bodyEnd = body.phase === "ended" ? body.bodyEnd : body.lastClose;
    if (bodyEnd < 0) {
      return this.#done(failure("unclosed", `The reply ended before </${name}>`, name), -1);
    }
    const text = this.#store.text();
    const slice = (a: number, b: number) => this.#store.slice(a, b);
    return this.#done(callResult(tool, body, bodyEnd, this.#second !== null, text, slice), end);
  }

  /** After a call closed without `</tool_call>`: scans the rest as prose, for a second opener. */
  #tail(from: number, total: number): number {
    this.#emitted = from;
    const rest = new ProseScanner(from);
    rest.scan(this.#store.slice(from, total), 0, from);
    rest.end();
    if (rest.opener === null) return total;
    this.#second = rest.opener;
    return rest.opener.start;
  }

  /** Records the result and the prose released by the end (up to `end`; none when -1). */
  #done(result: ParseResult, end: number): ParseResult {
    if (end >= 0) this.#hold(end);
    this.#final = this.#held;
    this.#held = "";
    return result;
  }
}

/** Parses one whole reply in the canonical form only (no dialects, no reasoning). */
export function parseCanonical(text: string, specs: readonly ToolSpec[]): ParseResult {
  const scanner = new CanonicalScanner(specs);
  scanner.push(text);
  return scanner.finish();
}
