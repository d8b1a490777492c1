/**
 * End-to-end benchmark of minoc as users run it, against the scripted test
 * server: start-up (`--version`, `--help`, a new bundle's first start, which
 * unpacks its modules, start → first request of `run`),
 * the 3-turn task (read notes.md, write it, finish) and a 200-turn session,
 * once more with every core kept busy by a spinning process (`busy.ts`).
 * Each part states the machine's 1-minute load average at its end.
 *
 * Agent time of a turn is the time minoc spends between the end of one reply
 * (the server's `finishedAt`, after the final `[DONE]` event) and its next
 * request (`receivedAt`): reading the stream's end, parsing, gates, the tool,
 * recording, building the next request. Replies stream their last pieces a
 * few milliseconds apart, as a model does, so the client has read the rest
 * before the reply ends. Peak memory is the deno process's `VmHWM`.
 *
 * Start-up is also given as a multiple of Deno's own hello-world start,
 * measured between minoc's runs (same machine, same load).
 *
 * Aims (issue 24): `--version` ≤ 4× hello, first request ≤ 8× hello, ≤ 5 ms
 * agent time per turn, flat to turn 200, peak ≤ 80 MB (3 turns) and ≤ 110 MB
 * (200 turns).
 *
 * Run alone: `deno run -A bench/e2e_bench.ts [entry]` (default `main.ts`;
 * give `dist/minoc.js` to measure the bundle).
 *
 * @module
 */
import { join, resolve } from "node:path";
import { ROOT } from "../tests/support/cli.ts";
import { type RecordedRequest, type ScriptedReply, startServer } from "../tests/support/server.ts";
import { epochMs, median, round, timedRun } from "./spawn.ts";
import { busy, type Load, loadMeter } from "./busy.ts";

/** Options of {@link benchE2e}. */
export interface E2eOptions {
  /** The script minoc runs from (default: `main.ts` of this repository). */
  entry?: string;
  /** Repetitions of each start-up measurement (default 15). */
  startupRuns?: number;
  /** Repetitions of the 3-turn task (default 5). */
  taskRuns?: number;
  /** Turns of the long session (default 200). */
  longTurns?: number;
}

/**
 * A scripted reply that streams like a model still generating: all but its
 * last 16 characters, then the rest, with the closing events {@link STREAM_GAP_MS}
 * apart. Agent time then counts from the final event, as with a real server,
 * instead of including the client's reading of a reply that arrived at once.
 */
function streamed(text: string): ScriptedReply {
  return { chunks: [text.slice(0, -16), text.slice(-16)], chunkDelayMs: STREAM_GAP_MS };
}

/** Milliseconds between the last pieces of a streamed reply. */
const STREAM_GAP_MS = 3;

const call = (tool: string, params: Record<string, string>) =>
  `<tool_call>\n<${tool}>\n${
    Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join("\n")
  }\n</${tool}>\n</tool_call>`;

/** Runs every end-to-end measurement; times in ms, memory in MB, sizes in characters. */
export async function benchE2e(o: E2eOptions = {}): Promise<Record<string, number>> {
  const entry = resolve(o.entry ?? join(ROOT, "main.ts"));
  const dir = await Deno.makeTempDir({ prefix: "minoc_e2e_bench_" });
  try {
    const turns = o.longTurns ?? 200;
    const measured = async <T>(fn: () => Promise<T>) => {
      const load = loadMeter();
      return { result: await fn(), load: load() };
    };
    const start = await measured(() => startup(entry, dir, o.startupRuns ?? 15));
    const task = await measured(async () => ({
      ...await threeTurns(entry, dir, o.taskRuns ?? 5),
      ...await slowFirstToken(entry, dir, o.taskRuns ?? 5),
    }));
    const long = await measured(() => longSession(entry, dir, turns));
    const loaded = await busy(() => longSession(entry, join(dir, "busy"), turns));
    return {
      ...start.result,
      ...task.result,
      ...long.result,
      s200_busy_agent_ms_median: loaded.result.s200_agent_ms_median,
      s200_busy_agent_ms_late: loaded.result.s200_agent_ms_late,
      ...loadKeys("startup", start.load),
      ...loadKeys("task3", task.load),
      ...loadKeys("s200", long.load),
      ...loadKeys("busy", loaded.load),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A part's load as results: `load_<part>_busy_pct` and `load_<part>_avg`. */
function loadKeys(part: string, load: Load): Record<string, number> {
  return { [`load_${part}_busy_pct`]: load.busyPct, [`load_${part}_avg`]: load.avg };
}

async function startup(entry: string, dir: string, runs: number) {
  const cwd = join(dir, "startup");
  await Deno.mkdir(cwd);
  const version: number[] = [];
  const help: number[] = [];
  // Deno's own start, measured between minoc's so that both see the same load.
  const hello: number[] = [];
  const helloEntry = join(dir, "hello.js");
  await Deno.writeTextFile(helloEntry, 'console.log("hello");\n');
  for (let i = 0; i < runs + 1; i++) {
    const o = await timedRun([], { entry: helloEntry, cwd });
    const v = await timedRun(["--version"], { entry, cwd });
    const h = await timedRun(["--help"], { entry, cwd });
    if (v.code !== 0 || h.code !== 0) throw new Error(`minoc --version/--help failed: ${v.stderr}`);
    if (i === 0) continue; // the first run fills Deno's code cache
    hello.push(o.wallMs);
    version.push(v.wallMs);
    help.push(h.wallMs);
  }
  // A new bundle's first start unpacks its modules (into an empty cache folder each time).
  const unpack: { ms: number[]; mb: number[] } = { ms: [], mb: [] };
  for (let i = 0; i < Math.min(runs, 5); i++) {
    const cache = await Deno.makeTempDir({ dir, prefix: "cache_" });
    const v = await timedRun(["--version"], { entry, cwd, env: { MINOC_CACHE_DIR: cache } });
    if (v.code !== 0) throw new Error(`minoc --version (first start) failed: ${v.stderr}`);
    unpack.ms.push(v.wallMs);
    unpack.mb.push(v.peakMb);
  }
  const first = await firstRequests(entry, { cwd }, runs);
  // A real project: this repository, whose summary needs the tokenizer.
  const repo = await firstRequests(entry, { cwd: ROOT, home: join(dir, "repo-home") }, runs);
  const helloMs = median(hello);
  return {
    hello_ms: round(helloMs),
    version_x_hello: round(median(version) / helloMs, 2),
    first_request_x_hello: round(median(first.ms) / helloMs, 2),
    version_ms: round(median(version)),
    version_min_ms: round(Math.min(...version)),
    help_ms: round(median(help)),
    first_start_version_ms: round(median(unpack.ms)),
    first_start_peak_mb: round(Math.max(...unpack.mb)),
    help_min_ms: round(Math.min(...help)),
    first_request_ms: round(median(first.ms)),
    first_request_min_ms: round(Math.min(...first.ms)),
    one_turn_peak_mb: round(Math.max(...first.peakMb)),
    repo_first_request_ms: round(median(repo.ms)),
    repo_one_turn_peak_mb: round(Math.max(...repo.peakMb)),
  };
}

/** Start → first request of `run` (and the run's peak memory), after one warm-up run. */
async function firstRequests(entry: string, where: { cwd: string; home?: string }, runs: number) {
  await using server = await startServer({ replies: [{ text: "All done." }], loop: true });
  const ms: number[] = [];
  const peakMb: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const before = server.requests.length;
    const r = await timedRun(
      ["run", "say hi", "--base-url", server.baseUrl, "--model", "bench"],
      { entry, ...where },
    );
    if (r.code !== 0) throw new Error(`minoc run failed (exit ${r.code}): ${r.stderr}`);
    if (i === 0) continue;
    ms.push(server.requests[before].receivedAt - r.startedAt);
    peakMb.push(r.peakMb);
  }
  return { ms, peakMb };
}

/** Time between the end of each reply and the next request, indexed by the next turn - 2. */
function agentGaps(requests: RecordedRequest[]): number[] {
  const chat = requests.filter((r) => r.path.endsWith("/chat/completions"));
  const gaps: number[] = [];
  for (let i = 1; i < chat.length; i++) {
    const end = chat[i - 1].finishedAt;
    if (end === undefined) throw new Error(`Reply ${i} has no finish time`);
    gaps.push(chat[i].receivedAt - end);
  }
  return gaps;
}

/** The 3-turn task's replies; `thinkMs`: the model's time before it answers each request. */
function taskReplies(thinkMs = 0): ScriptedReply[] {
  return [
    streamed("I'll read the notes first.\n" + call("read_file", { path: "notes.md" })),
    streamed(call("write_to_file", { path: "notes.md", content: "\nline one\nline two\n" })),
    streamed(call("attempt_completion", { result: "Added line two." })),
  ].map((r) => thinkMs > 0 ? { ...r, delayMs: thinkMs } : r);
}

/**
 * The 3-turn task with a model that, like any real one, takes a while before
 * it answers (100 ms here; real servers take longer): the time the warm-up
 * has. Beside the main rows, which give the model no time at all.
 */
async function slowFirstToken(entry: string, dir: string, runs: number) {
  const r = await threeTurns(entry, dir, runs, 100);
  return { task3_thinking_agent_ms_per_turn: r.task3_agent_ms_per_turn };
}

async function threeTurns(entry: string, dir: string, runs: number, thinkMs = 0) {
  const replies = taskReplies(thinkMs);
  const wall: number[] = [];
  const gaps: number[] = [];
  const peak: number[] = [];
  let promptChars = 0;
  let systemChars = 0;
  for (let i = 0; i < runs; i++) {
    const cwd = join(dir, `task${thinkMs}_${i}`);
    await Deno.mkdir(cwd);
    await Deno.writeTextFile(join(cwd, "notes.md"), "line one\n");
    await using server = await startServer({ replies });
    const r = await timedRun(
      ["run", "add a line to notes.md", "--base-url", server.baseUrl, "--model", "bench", "--yes"],
      { entry, cwd },
    );
    if (r.code !== 0) throw new Error(`3-turn task failed (exit ${r.code}): ${r.stderr}`);
    const text = await Deno.readTextFile(join(cwd, "notes.md"));
    if (text !== "line one\nline two\n") throw new Error("3-turn task did not write notes.md");
    wall.push(r.wallMs);
    gaps.push(...agentGaps(server.requests));
    peak.push(r.peakMb);
    const messages = server.requests[0].body.messages as { role: string; content: string }[];
    promptChars = messages.reduce((n, m) => n + m.content.length, 0);
    systemChars = messages[0].content.length;
  }
  return {
    task3_wall_ms: round(median(wall)),
    task3_agent_ms_per_turn: round(median(gaps), 2),
    task3_agent_ms_max: round(Math.max(...gaps), 2),
    task3_peak_mb: round(Math.max(...peak)),
    prompt_turn1_chars: promptChars,
    system_prompt_chars: systemChars,
  };
}

/** A reply of the long session: read, write and list calls in turn, then finish. */
function longReply(turn: number, turns: number): ScriptedReply {
  if (turn === turns) return streamed(call("attempt_completion", { result: "All notes written." }));
  const prose = `Step ${turn}: continuing with the next file.\n`;
  if (turn % 3 === 1) return streamed(prose + call("read_file", { path: `src/f${turn % 20}.ts` }));
  if (turn % 3 === 2) return streamed(prose + call("list_files", { path: "src" }));
  const content = `\n# Note ${turn}\n\n${"The module exports one function. ".repeat(15)}\n`;
  return streamed(prose + call("write_to_file", { path: `notes/n${turn}.md`, content }));
}

async function longSession(entry: string, dir: string, turns: number) {
  const cwd = join(dir, "long");
  await Deno.mkdir(dir, { recursive: true });
  await Deno.mkdir(join(cwd, "src"), { recursive: true });
  for (let i = 0; i < 20; i++) {
    const body = Array.from({ length: 60 }, (_, n) => `export const v${n} = ${n * i}; // value`);
    await Deno.writeTextFile(join(cwd, "src", `f${i}.ts`), body.join("\n") + "\n");
  }
  const replies = Array.from({ length: turns }, (_, i) => longReply(i + 1, turns));
  await using server = await startServer({ replies });
  // The resident set's highest reading while each turn's reply was due, by turn.
  const rssByTurn: number[] = [];
  const onRss = (mb: number) => {
    const turn = server.requests.length;
    rssByTurn[turn] = Math.max(rssByTurn[turn] ?? 0, mb);
  };
  const r = await timedRun(
    [
      ...["run", "write a note per step", "--base-url", server.baseUrl, "--model", "bench"],
      ...["--yes", "--max-turns", String(turns + 10)],
    ],
    { entry, cwd, onRss },
  );
  if (r.code !== 0) throw new Error(`Long session failed (exit ${r.code}): ${r.stderr}`);
  const gaps = agentGaps(server.requests);
  if (gaps.length !== turns - 1) throw new Error(`Long session made ${gaps.length + 1} requests`);
  // gaps[k] is the agent time before turn k + 2: the turns' tenths, first and last.
  const tenth = Math.max(1, Math.floor(turns / 10));
  const half = Math.floor(turns / 2);
  const peakOf = (from: number, to: number) =>
    Math.max(0, ...rssByTurn.slice(from, to + 1).filter((x) => x));
  const last = server.requests.at(-1)!;
  return {
    s200_turns: turns,
    s200_wall_ms: round(r.wallMs),
    s200_agent_ms_early: round(median(gaps.slice(0, tenth)), 2),
    s200_agent_ms_late: round(median(gaps.slice(-tenth)), 2),
    s200_agent_ms_median: round(median(gaps), 2),
    s200_peak_late_minus_early_mb: round(peakOf(half + 1, turns) - peakOf(1, half)),
    s200_agent_ms_p95: round(gaps.toSorted((a, b) => a - b)[Math.floor(gaps.length * 0.95)], 2),
    s200_exit_after_last_reply_ms: round(r.startedAt + r.wallMs - (last.finishedAt ?? epochMs())),
    s200_peak_mb: round(r.peakMb),
  };
}

if (import.meta.main) {
  const result = await benchE2e({ entry: Deno.args[0] });
  for (const [name, value] of Object.entries(result)) console.log(`${name.padEnd(32)} ${value}`);
}
