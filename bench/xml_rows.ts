/**
 * The rows of the scanner benchmark (`bench/xml_bench.ts`), each computed by
 * {@link xmlRow} in an isolate of its own. When this module runs as a worker,
 * it answers one message: the row's name in, its figures out.
 *
 * Chunks are `text.slice()` views into the whole reply. A stream's chunks are
 * strings of their own (each parsed out of an event's JSON); chunks made that
 * way were measured and made the chunked rows slower here, not faster (see
 * bench/NOTES.md, "Streamed parsing (sixth pass)"). Each row is warmed up
 * once before it is timed.
 *
 * @module
 */
import type { ToolSpec } from "../interfaces/tool.ts";
import { CallScanner, parseReply } from "../core/protocol/xml.ts";
import { BENCH_DIALECTS, benchContent, benchReply, replyIn } from "./xml_dialects.ts";

const SPECS: readonly ToolSpec[] = [{
  name: "write_to_file",
  params: [
    { name: "path", description: "File path", required: true },
    { name: "content", description: "File content", required: true, bulk: true },
  ],
}];

const MB = 1024 * 1024;
/** Timed rounds: each times the whole reply thrice, 16-byte chunks once, 1-byte chunks every other round. */
const ROUNDS = 16;
/** Untimed runs before a dialect row's timed ones (its worker starts with no code compiled). */
const WARM_UPS = 3;

/** The benchmark reply's content after 1 MB of reasoning, then a small call. */
export function thinkReply(size = MB): string {
  return `<think>\n${
    benchContent(size)
  }\n</think>\n<tool_call>\n<write_to_file>\n<path>a</path>\n` +
    "<content>x</content>\n</write_to_file>\n</tool_call>\n";
}

/** 1 MB of lines that start calls in many dialects and finish none (work must stay linear). */
export function junkReply(size = MB): string {
  const line =
    '<tool_call> oops\n{ "half": [\n[TOOL_CALLS] no\n<function_calls>\n<|python_tag|>x\n';
  return line.repeat(Math.ceil(size / line.length));
}

/** Best MB/s of `reply` parsed whole and fed in 16-byte chunks. */
export function dialectRates(reply: string, kind = "call"): [number, number] {
  const mb = new TextEncoder().encode(reply).length / MB;
  const c16 = cut(reply, 16);
  for (let i = 0; i < WARM_UPS; i++) {
    feed([reply], kind);
    feed(c16, kind);
  }
  let whole = Infinity;
  let ms16 = Infinity;
  for (let round = 0; round < ROUNDS / 2; round++) {
    whole = Math.min(whole, time(() => feed([reply], kind)));
    ms16 = Math.min(ms16, time(() => feed(c16, kind)));
  }
  const rate = (ms: number) => Math.round((mb / (ms / 1000)) * 10) / 10;
  return [rate(whole), rate(ms16)];
}

function cut(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function feed(chunks: readonly string[], kind = "call"): void {
  const s = new CallScanner(SPECS);
  for (const c of chunks) s.push(c);
  const got = s.finish().kind;
  if (got !== kind) throw new Error(`The benchmark reply parsed as ${got}, not ${kind}`);
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/**
 * The canonical reply whole and in `size`-character chunks (16 or 1), in an
 * isolate of its own per size: the 1-byte form's million chunks and their
 * garbage would otherwise weigh on the 16-byte runs (its row measured 1.6–2.2×
 * beside 1.3–1.6× for the same reply in its dialect row).
 */
export function canonicalRows(size: 16 | 1): Record<string, number> {
  const reply = benchReply();
  const mb = new TextEncoder().encode(reply).length / MB;
  const chunks = cut(reply, size);
  for (let i = 0; i < 3; i++) {
    parseReply(reply, SPECS);
    feed(chunks);
  }
  // Best times of rounds that take turns, so that a busy spell on a shared
  // machine slows both forms alike rather than one of them.
  let whole = Infinity;
  let ms = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < 3; i++) whole = Math.min(whole, time(() => parseReply(reply, SPECS)));
    if (size === 16 || round % 2 === 0) ms = Math.min(ms, time(() => feed(chunks)));
  }
  const rate = (t: number) => Math.round((mb / (t / 1000)) * 10) / 10;
  const ratio = Math.round((ms / whole) * 100) / 100;
  if (size === 1) return { xml_chunk1_mb_s: rate(ms), xml_chunk1_vs_whole: ratio };
  return { xml_whole_mb_s: rate(whole), xml_chunk16_mb_s: rate(ms), xml_chunk16_vs_whole: ratio };
}

/** The rows {@link xmlRow} computes, one isolate each. */
export const XML_ROWS: readonly string[] = [
  "canonical",
  "canonical1",
  "think",
  ...BENCH_DIALECTS.map((d) => `d:${d}`),
  "junk",
];

/** Dialects whose rates also keep the rows' older names (`xml_hermes_*`, `xml_coder_*`). */
const OLDER_NAMES: Readonly<Record<string, string>> = {
  hermes_json: "hermes",
  qwen3_coder: "coder",
};

/** The figures of one row of {@link XML_ROWS}. */
export function xmlRow(row: string): Record<string, number> {
  const pair = (name: string, [whole, c16]: [number, number]) => ({
    [`xml_${name}_whole_mb_s`]: whole,
    [`xml_${name}_chunk16_mb_s`]: c16,
  });
  if (row === "canonical") return canonicalRows(16);
  if (row === "canonical1") return canonicalRows(1);
  if (row === "think") return pair("think", dialectRates(thinkReply()));
  if (row === "junk") return pair("junk", dialectRates(junkReply(), "error"));
  if (!row.startsWith("d:")) throw new Error(`Unknown scanner benchmark row "${row}"`);
  const dialect = row.slice(2);
  const [w, c] = dialectRates(replyIn(dialect));
  const older = OLDER_NAMES[dialect];
  return {
    ...(older === undefined ? {} : pair(older, [w, c])),
    [`xml_d_${dialect}_chunk16_mb_s`]: c,
    [`xml_d_${dialect}_chunk16_vs_whole`]: Math.round((w / c) * 100) / 100,
  };
}

// As a worker: one row per message.
const scope = globalThis as unknown as {
  WorkerGlobalScope?: unknown;
  onmessage: ((e: MessageEvent<string>) => void) | null;
  postMessage(value: unknown): void;
};
if (scope.WorkerGlobalScope !== undefined) {
  scope.onmessage = (e) => scope.postMessage(xmlRow(e.data));
}
