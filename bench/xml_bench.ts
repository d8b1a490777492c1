/**
 * Benchmark of the tool-call scanner: a 1 MB `write_to_file` reply parsed
 * whole, then fed in 16-byte and 1-byte chunks. Aim: ≥ 50 MB/s, chunked
 * within 2× of whole.
 *
 * Run alone: `deno run bench/xml_bench.ts`.
 *
 * @module
 */
import type { ToolSpec } from "../interfaces/tool.ts";
import { CallScanner, parseReply } from "../core/protocol/xml.ts";

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

/** A reply of about `size` characters: prose, then one call with code-like content. */
export function benchReply(size = MB): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const line = i % 3 === 0
      ? `  <li class="item-${i}">{a < b && "</content>"} &amp; ${i}</li>`
      : `  const v${i} = items.filter((x) => x.size <= ${i}).map((x) => x.name); // 日本語`;
    lines.push(line);
    length += line.length + 1;
  }
  return "Writing the file now.\n<tool_call>\n<write_to_file>\n<path>src/big.tsx</path>\n" +
    `<content>\n${lines.join("\n")}\n</content>\n</write_to_file>\n</tool_call>\n`;
}

function cut(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function feed(chunks: readonly string[]): void {
  const s = new CallScanner(SPECS);
  for (const c of chunks) s.push(c);
  if (s.finish().kind !== "call") throw new Error("The benchmark reply did not parse as a call");
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/**
 * Measures throughput in MB/s (whole, 16-byte and 1-byte chunks) and the
 * chunked-to-whole time ratios.
 */
export function benchXml(): Promise<Record<string, number>> {
  const reply = benchReply();
  const mb = new TextEncoder().encode(reply).length / MB;
  const c16 = cut(reply, 16);
  const c1 = cut(reply, 1);
  for (let i = 0; i < 3; i++) {
    parseReply(reply, SPECS);
    feed(c16);
    feed(c1);
  }
  // Best times of rounds that take turns, so that a busy spell on a shared
  // machine slows all three alike rather than one of them.
  let whole = Infinity;
  let ms16 = Infinity;
  let ms1 = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < 3; i++) whole = Math.min(whole, time(() => parseReply(reply, SPECS)));
    ms16 = Math.min(ms16, time(() => feed(c16)));
    if (round % 2 === 0) ms1 = Math.min(ms1, time(() => feed(c1)));
  }
  const rate = (ms: number) => Math.round((mb / (ms / 1000)) * 10) / 10;
  const ratio = (ms: number) => Math.round((ms / whole) * 100) / 100;
  return Promise.resolve({
    xml_whole_mb_s: rate(whole),
    xml_chunk16_mb_s: rate(ms16),
    xml_chunk1_mb_s: rate(ms1),
    xml_chunk16_vs_whole: ratio(ms16),
    xml_chunk1_vs_whole: ratio(ms1),
  });
}

if (import.meta.main) {
  for (const [name, value] of Object.entries(await benchXml())) console.log(`${name}: ${value}`);
}
