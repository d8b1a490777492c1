/**
 * Session recorder benchmark: 2,000 messages carrying ~20 MB of tool output.
 * The time of one append must not grow with the session: compare the median
 * append around message 10 with the one around message 2,000.
 *
 * Run alone: `deno run --allow-read --allow-write bench/session_bench.ts`
 *
 * @module
 */
import { createRecorder } from "../core/history/recorder.ts";

const MESSAGES = 2_000;
const encoder = new TextEncoder();
const WINDOW = 21;
const LINE = 'src/app.ts:12: output line with "quotes" and ✓\n';

/** Message i: a ~17 KB tool result, 200 KB every 100th message, short talk between. */
function messageFor(i: number): { role: "user" | "assistant" | "tool_response"; content: string } {
  const kind = i % 4;
  if (kind === 0) return { role: "user", content: `Step ${i}: continue with the next file` };
  if (kind === 1) return { role: "assistant", content: `<tool_call><read_file>f${i}</read_file>` };
  const size = i % 100 === 2 ? 200_000 : 16_000 + (i % 7) * 100;
  return { role: "tool_response", content: `${i}: ${LINE.repeat(size / LINE.length)}` };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Same-kind appends (~17 KB tool results) nearest to message `at`. */
function windowAround(times: number[], at: number): number[] {
  const picked: number[] = [];
  for (let d = 0; picked.length < WINDOW && d < times.length; d++) {
    for (const i of d === 0 ? [at] : [at - d, at + d]) {
      if (i >= 0 && i < times.length && i % 4 >= 2 && i % 100 !== 2) picked.push(times[i]);
    }
  }
  return picked;
}

/** Runs the benchmark in a temp dir; returns milliseconds and megabytes. */
export async function benchSessions(): Promise<Record<string, number>> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_bench_" });
  try {
    const times: number[] = [];
    let bytes = 0;
    const start = performance.now();
    const rec = await createRecorder({
      sessionsDir: dir,
      model: "bench",
      projectPath: dir,
      mode: "agent",
    });
    for (let i = 0; i < MESSAGES; i++) {
      const message = messageFor(i);
      bytes += encoder.encode(message.content).length;
      const t = performance.now();
      await rec.append(message);
      if (i % 4 === 3) await rec.update({ turns: i / 4, totalTokens: i * 100 });
      times.push(performance.now() - t);
    }
    await rec.close();
    const total = performance.now() - start;
    const size = (await Deno.stat(rec.path!)).size;
    return {
      messages: MESSAGES,
      content_mb: round(bytes / 1e6),
      file_mb: round(size / 1e6),
      append_ms_at_10: round(median(windowAround(times, 10))),
      append_ms_at_2000: round(median(windowAround(times, MESSAGES - 1))),
      append_ms_p95: round(times.toSorted((a, b) => a - b)[Math.floor(times.length * 0.95)]),
      total_ms: round(total),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

if (import.meta.main) {
  const result = await benchSessions();
  for (const [name, value] of Object.entries(result)) console.log(`${name.padEnd(20)} ${value}`);
}
