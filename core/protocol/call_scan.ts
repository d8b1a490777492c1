/**
 * Scans a tool call after its `<tool_call>` opener (rules 2–4): reads the
 * tool element's name, then records where the parameter tags and the tool's
 * closing tags lie. Values are cut out only at the end (see `params.ts`), so
 * each character is looked at once however the reply is chunked.
 *
 * @module
 */
import type { ParamSpec, ToolSpec } from "../../interfaces/tool.ts";
import { isSpace, LT, Tag, TagReader } from "./tags.ts";

/** Positions of the parameter tags inside a call, in order of appearance. */
export interface Tokens {
  /** Number of tokens recorded. */
  count: number;
  /** Whether token k is a closing tag. */
  close: boolean[];
  /** Index of token k's parameter in the tool's `params`. */
  param: number[];
  /** Absolute position of token k's `<`. */
  start: number[];
  /** Absolute position just after token k's `>`. */
  end: number[];
}

/** Where the call stands. */
export type CallPhase =
  /** Waiting for `<NAME>` after the opener. */
  | "name"
  /** Inside the tool element. */
  | "body"
  /** `</NAME>` followed by `</tool_call>` was seen. */
  | "ended"
  /** Something other than a tool element followed the opener. */
  | "junk";

const LONGEST_TOOL_NAME = 64;

/**
 * Scans one call, chunk by chunk. `slice(a, b)` returns the reply's text
 * between two absolute positions (used only for the live summary).
 *
 * @example
 * ```ts
 * const body = new CallScanBody(specs, 11, (a, b) => text.slice(a, b));
 * body.scan(text, 11, 0);
 * body.phase; // "ended"
 * ```
 */
export class CallScanBody {
  phase: CallPhase = "name";
  /** The tool element's name, once read. */
  name = "";
  /** The tool's spec; null when the name is unknown. */
  tool: ToolSpec | null = null;
  /** Absolute position just after `<NAME>`. */
  bodyStart = -1;
  /** Start and end of the last `</NAME>` seen. */
  lastClose = -1;
  lastCloseEnd = -1;
  /** When ended: start of the final `</NAME>` and end of `</tool_call>`. */
  bodyEnd = -1;
  callEnd = -1;
  readonly tokens: Tokens = { count: 0, close: [], param: [], start: [], end: [] };
  /** One-line live summary, e.g. `write_to_file notes.md`. */
  summary = "";
  /** In the body: the first character of each tag name that counts there. */
  firsts: number[] = [];
  /**
   * The bulk parameter whose value is open, once the call's values reach
   * one (its value runs to its last closing tag, so its own tags are no
   * longer recorded while streaming: see {@link completeBulk}), or -1.
   */
  bulk = -1;
  /** Absolute position just after the opening tag of {@link bulk}. */
  bulkFrom = -1;

  #specs: ReadonlyMap<string, ToolSpec>;
  #slice: (a: number, b: number) => string;
  #params = new Map<string, number>();
  #tag = new TagReader(LONGEST_TOOL_NAME);
  #candidate = false;
  #summary: SummaryState | null = null;
  /** The plain parameter whose value is open, as `readParams` walks the tokens, or -1. */
  #inside = -1;
  #names: string[] = [];

  constructor(
    specs: ReadonlyMap<string, ToolSpec>,
    slice: (a: number, b: number) => string,
  ) {
    this.#specs = specs;
    this.#slice = slice;
  }

  /**
   * Scans `chunk` from index `i` (`chunk[0]` is at absolute `base`). Returns
   * the index where it stopped: just after `</tool_call>` when the call
   * ended, where the junk starts, or the chunk's length. `only`, when not
   * -1, is where the chunk's only `<` stands (the caller has looked already).
   */
  scan(chunk: string, i: number, base: number, only = -1): number {
    const n = chunk.length;
    const tag = this.#tag;
    while (i < n) {
      if (tag.state !== 0) {
        i = tag.read(chunk, i);
        if (tag.result === Tag.Done) this.#onTag(base + i);
        else if (tag.result === Tag.Abort) this.#onNotTag();
        if (this.phase === "ended" || this.phase === "junk") return i;
        continue;
      }
      if (this.phase === "name" || this.#candidate) {
        const c = chunk.charCodeAt(i);
        if (isSpace(c)) {
          i++;
          continue;
        }
        if (c !== LT) {
          this.#onNotTag();
          if (this.phase === "junk") return i;
          continue;
        }
        tag.begin(base + i);
        i++;
        continue;
      }
      const j = only >= 0
        ? (only >= i ? only : -1)
        : n - i > 3
        ? chunk.indexOf("<", i)
        : findLt(chunk, i, n);
      if (j < 0) return n;
      tag.begin(base + j);
      i = j + 1;
    }
    return n;
  }

  /** Whether a chunk without `<` would change nothing (inside the body, between tags). */
  get idle(): boolean {
    return this.phase === "body" && this.#tag.state === 0 && !this.#candidate;
  }

  /** The reply ended: a partial tag is text. */
  end(): void {
    this.#tag.reset();
  }

  #onNotTag(): void {
    if (this.phase === "name") this.phase = "junk";
    this.#candidate = false;
  }

  #onTag(end: number): void {
    const { close, name, start } = this.#tag;
    if (this.phase === "name") return close ? this.#onNotTag() : this.#open(name, end);
    if (close && name === this.name) {
      this.lastClose = start;
      this.lastCloseEnd = end;
      this.#candidate = true;
      return;
    }
    if (close && name === "tool_call" && this.#candidate) {
      this.bodyEnd = this.lastClose;
      this.callEnd = end;
      this.phase = "ended";
      return;
    }
    this.#candidate = false;
    if (name === "") return; // a name no parameter has
    const p = this.#params.get(name);
    if (p === undefined || p === this.bulk) return;
    if (this.bulk < 0) this.#walk(p, close, end);
    const t = this.tokens;
    t.close.push(close);
    t.param.push(p);
    t.start.push(start);
    t.end.push(end);
    t.count++;
    if (this.#summary !== null) this.#track(p, close, start, end);
  }

  #open(name: string, end: number): void {
    this.name = name;
    this.phase = "body";
    this.bodyStart = end;
    this.summary = name;
    const tool = this.#specs.get(name) ?? null;
    this.tool = tool;
    const names = [name, "tool_call"];
    if (tool !== null) {
      tool.params.forEach((p, k) => {
        this.#params.set(p.name, k);
        names.push(p.name);
      });
      const main = tool.params.findIndex((p) => !p.bulk);
      if (main >= 0) this.#summary = { main, spec: tool.params[main], open: -1, from: 0, seen: [] };
    }
    this.#tag.expect(names);
    this.#names = names;
    this.firsts = names.map((n) => n.charCodeAt(0));
  }

  /** Follows the values as `readParams` will: from a bulk value on, its own tags are skipped. */
  #walk(p: number, close: boolean, end: number): void {
    if (this.#inside >= 0) {
      if (close && p === this.#inside) this.#inside = -1;
      return;
    }
    if (close) return;
    const spec = (this.tool as ToolSpec).params[p];
    if (!spec.bulk) {
      this.#inside = p;
      return;
    }
    this.bulk = p;
    this.bulkFrom = end;
    const others = this.#names.filter((n) => n !== spec.name);
    this.firsts = others.map((n) => n.charCodeAt(0));
  }

  /**
   * Adds the tags of the {@link bulk} parameter that `readParams` reads,
   * found in `text` (the whole reply): its last closing tag before
   * `bodyEnd` and the first opening tag after that. A tag is exactly
   * `<name>` or `</name>` and the body reads every one, so searching for it
   * finds the same tags the scan would have recorded.
   */
  completeBulk(text: string, bodyEnd: number): void {
    const p = this.bulk;
    if (p < 0 || this.bulkFrom > bodyEnd) return;
    const name = (this.tool as ToolSpec).params[p].name;
    const closer = `</${name}>`;
    const at = text.lastIndexOf(closer, bodyEnd - closer.length);
    if (at < this.bulkFrom) return;
    this.#insert(true, p, at, at + closer.length);
    const open = text.indexOf(`<${name}>`, at + closer.length);
    if (open >= 0 && open < bodyEnd) this.#insert(false, p, open, open + name.length + 2);
  }

  /** Records a token in order of position. */
  #insert(close: boolean, p: number, start: number, end: number): void {
    const t = this.tokens;
    let k = t.count;
    while (k > 0 && t.start[k - 1] > start) k--;
    t.close.splice(k, 0, close);
    t.param.splice(k, 0, p);
    t.start.splice(k, 0, start);
    t.end.splice(k, 0, end);
    t.count++;
  }

  /** Follows the main parameter (the first non-bulk one) for the live summary. */
  #track(p: number, close: boolean, start: number, end: number): void {
    const s = this.#summary as SummaryState;
    const spec = (this.tool as ToolSpec).params[p];
    if (!close && s.open < 0) {
      if (spec.bulk) this.#summary = null; // the rest may be inside a bulk value
      else {
        s.open = p;
        s.from = end;
      }
      return;
    }
    if (!close || p !== s.open) return;
    s.open = -1;
    if (p !== s.main || (s.seen.length > 0 && !s.spec.multiple)) return;
    s.seen.push(oneLine(this.#slice(s.from, start)));
    this.summary = `${this.name} ${clip(s.seen.join(", "), 80)}`;
  }
}

/** Index of the first `<` in a short span `chunk[i..n)`, or -1 (cheaper there than `indexOf`). */
function findLt(chunk: string, i: number, n: number): number {
  for (; i < n; i++) if (chunk.charCodeAt(i) === LT) return i;
  return -1;
}

interface SummaryState {
  main: number;
  spec: ParamSpec;
  /** The parameter whose value is open, or -1. */
  open: number;
  from: number;
  seen: string[];
}

function oneLine(value: string): string {
  const v = value.trim();
  const nl = v.indexOf("\n");
  return (nl < 0 ? v : v.slice(0, nl)).trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
