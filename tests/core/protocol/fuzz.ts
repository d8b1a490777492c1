/**
 * Helpers for the protocol tests: ways to cut a reply into chunks, a streamed
 * run of the scanner, and the comparison shape of the corpus.
 *
 * @module
 */
import { rng } from "../../support/rng.ts";
import type { ParseResult, ToolSpec } from "../../../interfaces/tool.ts";
import { CallScanner } from "../../../core/protocol/xml.ts";
import { ReasoningSplitter } from "../../../core/protocol/reasoning_split.ts";

/**
 * The reply without its reasoning blocks (what a reply without a call shows
 * as prose); null when a late `</think>` made earlier text reasoning after it
 * was shown.
 */
export function visibleOf(text: string): string | null {
  const s = new ReasoningSplitter();
  const a = s.push(text);
  return a.reset ? null : a.visible + s.end().visible;
}

export { rng };

/** Cuts `text` at the given positions. */
export function cutAt(text: string, cuts: readonly number[]): string[] {
  const sorted = [...new Set(cuts)].filter((c) => c > 0 && c < text.length).sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const c of sorted) {
    out.push(text.slice(from, c));
    from = c;
  }
  out.push(text.slice(from));
  return out;
}

/** Chunks of `size` characters (the last one shorter). */
export function fixedChunks(text: string, size: number): string[] {
  const cuts: number[] = [];
  for (let i = size; i < text.length; i += size) cuts.push(i);
  return cutAt(text, cuts);
}

/** One UTF-16 code unit per chunk (surrogate pairs split too). */
export function perChar(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) out.push(text[i]);
  return out;
}

/** Random chunk sizes from 1 to `max`. */
export function randomChunks(text: string, seed: number, max = 12): string[] {
  const next = rng(seed);
  const cuts: number[] = [];
  for (let i = 0; i < text.length;) {
    i += 1 + Math.floor(next() * max);
    cuts.push(i);
  }
  return cutAt(text, cuts);
}

/** Cuts in the middle of every occurrence of the interesting pieces of markup. */
export function trickyCuts(text: string): string[] {
  const cuts: number[] = [];
  const marks = ["<tool_", "</content>", "</tool_call>", "\r\n", "<thinking>", "``", "]]>"];
  for (const m of marks) {
    for (let i = text.indexOf(m); i >= 0; i = text.indexOf(m, i + 1)) {
      for (let k = 1; k < m.length; k++) cuts.push(i + k);
    }
  }
  return cutAt(text, cuts);
}

/** What a streamed run produced. */
export interface Streamed {
  result: ParseResult;
  /** Prose of every push plus the final prose. */
  prose: string;
  /** The summaries, in order. */
  calls: string[];
}

/** Feeds `chunks` to a fresh scanner. */
export function stream(chunks: readonly string[], specs: readonly ToolSpec[]): Streamed {
  const s = new CallScanner(specs);
  let prose = "";
  const calls: string[] = [];
  for (const c of chunks) {
    const u = s.push(c);
    prose += u.prose;
    if (u.call !== undefined) calls.push(u.call);
  }
  const result = s.finish();
  return { result, prose: prose + s.finalProse(), calls };
}

/** The corpus' expected shape (the `debug parse --json` shape without the message). */
export type Shape =
  | { tool: string | null; params: Record<string, string | string[]> }
  | { error: string };

/** A result in the corpus' shape. */
export function shape(r: ParseResult): Shape {
  if (r.kind === "error") return { error: r.error };
  if (r.kind === "none") return { tool: null, params: {} };
  return { tool: r.call.tool, params: r.call.params };
}

/**
 * Whether `prose` is `input` with one span removed that starts with
 * `<tool_call>` (the call), as the prose of a call reply must be.
 */
export function isInputMinusCall(reply: string, prose: string): boolean {
  const input = visibleOf(reply) ?? reply;
  for (let a = 0; a <= prose.length; a++) {
    if (!input.startsWith(prose.slice(0, a))) return false;
    const tail = prose.slice(a);
    if (!input.endsWith(tail)) continue;
    const removed = input.slice(a, input.length - tail.length);
    if (/^(<|\[|\{|```|functools)/.test(removed)) return true;
  }
  return false;
}
