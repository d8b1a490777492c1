/**
 * Benchmark of the tool-call scanner: a 1 MB `write_to_file` reply parsed
 * whole, then fed in 16-byte and 1-byte chunks. Aim: ≥ 50 MB/s, chunked
 * within 2× of whole. Dialect rows: the same content written in every
 * dialect (`bench/xml_dialects.ts`), whole and in 16-byte chunks, and 1 MB of
 * `<think>` before a call (aim ≥ 50 MB/s, 16-byte chunks within 2× of whole).
 *
 * Each row runs in a worker of its own (`bench/xml_rows.ts`), the canonical
 * reply's 16-byte and 1-byte forms too, as each session
 * reads one model's dialect: in one shared isolate, a row's figures depended
 * on the rows before it (their garbage, and code the engine had compiled for
 * other dialects), by up to a third (bench/NOTES.md, "Streamed parsing,
 * eighth pass").
 *
 * Run alone: `deno run bench/xml_bench.ts`.
 *
 * @module
 */
import { XML_ROWS } from "./xml_rows.ts";

/** One row's figures, computed in a fresh worker. */
async function inWorker(row: string): Promise<Record<string, number>> {
  const worker = new Worker(new URL("./xml_rows.ts", import.meta.url), { type: "module" });
  try {
    return await new Promise((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<Record<string, number>>) => resolve(e.data);
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(`Scanner benchmark row "${row}" failed: ${e.message}`));
      };
      worker.postMessage(row);
    });
  } finally {
    worker.terminate();
  }
}

/**
 * Measures throughput in MB/s (whole, 16-byte and 1-byte chunks) and the
 * chunked-to-whole time ratios, one row at a time.
 */
export async function benchXml(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const row of XML_ROWS) Object.assign(out, await inWorker(row));
  return out;
}

if (import.meta.main) {
  for (const [name, value] of Object.entries(await benchXml())) console.log(`${name}: ${value}`);
}
