/**
 * The background processes of one session (`start_process` and friends).
 *
 * Each process runs through the platform shell in a process group of its own
 * (see `shell.ts`); its combined stdout and stderr are kept in a bounded
 * buffer (the last {@link MAX_BUFFER_CHARS} characters), its exit code is
 * recorded, and stopping it stops its whole tree. Processes are unref'd, so a
 * running one never keeps minoc alive; {@link installExitCleanup} makes sure
 * none outlives it.
 *
 * @example
 * ```ts
 * const processes = createProcessTable();
 * const uninstall = installExitCleanup(processes);
 * const { id } = processes.start("deno task dev", cwd, commandEnv(new Map()));
 * await processes.kill(id);
 * ```
 * @module
 */
import type { ProcessInfo, ProcessTable } from "../../interfaces/tool.ts";
import { killTree, killTreesNow, pumpOutput, spawnShell } from "./shell.ts";

/** Characters of combined output kept per process. */
export const MAX_BUFFER_CHARS = 1_000_000;

/** A {@link ProcessTable} that can also stop everything without awaiting. */
export interface LocalProcessTable extends ProcessTable {
  /**
   * Stops every running process tree at once, blocking for at most a few
   * hundred milliseconds: for `unload` and signal handlers, which cannot await.
   */
  stopAllNow(): void;
}

/** Options of {@link createProcessTable}. */
export interface ProcessTableOptions {
  /** Characters of output kept per process (default {@link MAX_BUFFER_CHARS}). */
  maxBufferChars?: number;
}

interface Entry {
  info: ProcessInfo;
  buffer: RingText;
  /** Both output streams ended: nothing in the tree holds them any more. */
  drained: boolean;
  finished: Promise<void>;
}

/**
 * Creates an empty process table. `start` throws when the shell cannot start
 * (for example a missing `cwd`); `env` is the complete environment of the
 * process (build it with `commandEnv`). `kill` resolves false for an unknown id.
 */
export function createProcessTable(options: ProcessTableOptions = {}): LocalProcessTable {
  const max = options.maxBufferChars ?? MAX_BUFFER_CHARS;
  const entries = new Map<string, Entry>();
  let next = 1;
  const running = () => [...entries.values()].filter((e) => !e.drained || e.info.exitCode === null);

  return {
    start(command, cwd, env, spawner) {
      const child = spawnShell(command, { cwd, env, spawner });
      child.unref();
      const info: ProcessInfo = {
        id: `p${next++}`,
        command,
        pid: child.pid,
        startedAt: new Date().toISOString(),
        exitCode: null,
      };
      const buffer = new RingText(max);
      const status = child.status.then((s) => {
        info.exitCode = s.code;
      });
      const pumped = pumpOutput(child, (t) => buffer.add(t)).then(() => {
        entry.drained = true;
      });
      const finished = Promise.all([status, pumped]).then(() => {});
      const entry: Entry = { info, buffer, drained: false, finished };
      entries.set(info.id, entry);
      return { ...info };
    },
    list: () => [...entries.values()].map((e) => ({ ...e.info })),
    output(id, tail) {
      const entry = entries.get(id);
      return entry ? entry.buffer.lastLines(tail) : null;
    },
    async kill(id) {
      const entry = entries.get(id);
      if (!entry) return false;
      await stop(entry);
      return true;
    },
    async killAll() {
      await Promise.all(running().map(stop));
    },
    stopAllNow() {
      killTreesNow(running().map((e) => e.info.pid));
    },
  };
}

async function stop(entry: Entry): Promise<void> {
  if (entry.drained && entry.info.exitCode !== null) return;
  await killTree(entry.info.pid);
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([entry.finished, new Promise((r) => timer = setTimeout(r, 2000))]);
  clearTimeout(timer);
}

/** Text that keeps only its last `max` characters. */
class RingText {
  #chunks: string[] = [];
  #size = 0;
  #dropped = 0;

  constructor(readonly max: number) {}

  add(text: string): void {
    this.#chunks.push(text);
    this.#size += text.length;
    while (this.#size > this.max) {
      const first = this.#chunks[0];
      const excess = this.#size - this.max;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#size -= first.length;
        this.#dropped += first.length;
      } else {
        this.#chunks[0] = first.slice(excess);
        this.#size -= excess;
        this.#dropped += excess;
      }
    }
  }

  /** The last `tail` lines (all kept text when omitted), with a note when older text was dropped. */
  lastLines(tail?: number): string {
    const text = this.#chunks.join("");
    this.#chunks = text ? [text] : [];
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    const from = tail === undefined ? 0 : Math.max(0, lines.length - tail);
    const note = from === 0 && this.#dropped > 0
      ? [`[... ${this.#dropped} earlier characters dropped ...]`]
      : [];
    return [...note, ...lines.slice(from)].join("\n");
  }
}

/** Signals after which no background process may survive (Unix only). */
const EXIT_SIGNALS = ["SIGTERM", "SIGHUP"] as const;

/** Options of {@link installExitCleanup}. */
export interface ExitCleanupOptions {
  /**
   * Called after the processes are stopped on SIGTERM or SIGHUP, e.g. so that
   * main.ts can exit with 128 + the signal number. When omitted, the handlers
   * are removed and the signal is raised again, so the default action (or
   * another listener) ends the process.
   */
  onSignal?(signal: "SIGTERM" | "SIGHUP"): void;
}

/**
 * Makes sure the table's processes die with minoc: on `unload` (the event loop
 * ran dry, or `Deno.exit` was called) and on SIGTERM / SIGHUP it stops them
 * all with `stopAllNow`. SIGINT is left alone: the REPL uses Ctrl+C to cancel
 * one command, and the caller stops processes itself on the way out. Never
 * exits. Returns a function that removes the handlers.
 */
export function installExitCleanup(
  table: LocalProcessTable,
  options: ExitCleanupOptions = {},
): () => void {
  const onUnload = () => table.stopAllNow();
  const handlers = EXIT_SIGNALS.map((signal) => {
    const handler = () => {
      table.stopAllNow();
      if (options.onSignal) return options.onSignal(signal);
      uninstall();
      Deno.kill(Deno.pid, signal);
    };
    return { signal, handler };
  });
  const unix = Deno.build.os !== "windows";
  globalThis.addEventListener("unload", onUnload);
  if (unix) { for (const h of handlers) Deno.addSignalListener(h.signal, h.handler); }
  let installed = true;
  function uninstall() {
    if (!installed) return;
    installed = false;
    globalThis.removeEventListener("unload", onUnload);
    if (unix) { for (const h of handlers) Deno.removeSignalListener(h.signal, h.handler); }
  }
  return uninstall;
}

/** One line about a background process: id, state, pid and command. */
export function describeProcess(info: ProcessInfo): string {
  const state = info.exitCode === null ? "running" : `exited with code ${info.exitCode}`;
  return `${info.id} (pid ${info.pid}, ${state}): ${info.command}`;
}

/** The message for an id the table does not know, listing the ids it does. */
export function unknownProcessMessage(id: string, known: readonly ProcessInfo[]): string {
  const ids = known.map((p) => `"${p.id}"`).join(", ");
  return known.length === 0
    ? `No background process has id "${id}": none were started in this session`
    : `No background process has id "${id}": known ids are ${ids}`;
}
