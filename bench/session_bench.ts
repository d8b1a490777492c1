/**
 * Session recorder benchmark: 2,000 messages carrying ~20 MB of tool output.
 * The time of one append must not grow with the session: compare the median
 * append around message 10 with the one around message 2,000.
 *
 * Run alone: `deno run --allow-read --allow-write bench/session_bench.ts`
 *
 * @module
 */
import { join } from "node:path";
import { dayFolder, defaultMetadata, renderSession } from "../core/history/format.ts";
import { createRecorder } from "../core/history/recorder.ts";
import { listSessions } from "../core/history/store.ts";
import { repairCutSessions } from "../core/history/repair_cut.ts";

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

const HISTORY_FILES = 300;
const HISTORY_MESSAGES = 60;

/**
 * What a session start costs over a long history: 300 earlier sessions of
 * ~200 KB (60 MB), a tenth of them in this project. Starting checks every
 * file for crash damage and the chat lists this project's sessions.
 */
export async function benchHistory(): Promise<Record<string, number>> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_bench_history_" });
  try {
    const day = join(dir, dayFolder(new Date(Date.now() - 86_400_000)));
    await Deno.mkdir(day);
    let bytes = 0;
    for (let i = 0; i < HISTORY_FILES; i++) {
      const text = renderSession({
        sessionId: `20261121-0000${String(i).padStart(3, "0")}`,
        timestamp: new Date(Date.now() - 86_400_000 + i).toISOString(),
        model: "bench",
        systemPrompt: "You are minoc. ".repeat(400),
        projectPath: i % 10 === 0 ? "/projects/here" : `/projects/other${i % 7}`,
        mode: "agent",
        messages: Array.from({ length: HISTORY_MESSAGES }, (_, k) => ({
          ...messageFor(k + 2),
          content: messageFor(k + 2).content.slice(0, 3_000),
          timestamp: new Date().toISOString(),
        })),
        metadata: { ...defaultMetadata(), messageCount: HISTORY_MESSAGES },
      });
      bytes += text.length;
      await Deno.writeTextFile(join(day, `session_${i}.json`), text);
    }
    const old = new Date(Date.now() - 3_600_000);
    for await (const e of Deno.readDir(day)) await Deno.utime(join(day, e.name), old, old);
    const timed = async (f: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await f();
        times.push(performance.now() - t);
      }
      return round(median(times));
    };
    return {
      history_files: HISTORY_FILES,
      history_mb: round(bytes / 1e6),
      repair_check_ms: await timed(() => repairCutSessions(dir, "/projects/here")),
      list_project_ms: await timed(() => listSessions(dir, { projectPath: "/projects/here" })),
      list_all_ms: await timed(() => listSessions(dir)),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

if (import.meta.main) {
  const result = { ...await benchSessions(), ...await benchHistory() };
  for (const [name, value] of Object.entries(result)) console.log(`${name.padEnd(20)} ${value}`);
}
