/**
 * The bridge's paste prompt: the user pastes (or types) the chat's answer and
 * ends it with a line `<<<EOF>>>` or Ctrl+D; Enter on an empty first line, or
 * `/paste`, reads the answer from the clipboard instead. Ctrl+C cancels.
 * Without a terminal the answer is read from standard input the same way.
 *
 * @example
 * ```ts
 * const port = terminalPastePort({ write: io.out, interactive: Deno.stdin.isTerminal() });
 * ```
 * @module
 */
import process from "node:process";
import type { PasteInput, PastePort } from "../../core/llm/bridge.ts";
import { EOF_MARK } from "../../core/llm/bridge.ts";
import { loadReadline, readLine } from "./line.ts";

/** How the port talks to the user. */
export interface PastePortOptions {
  write(text: string): void;
  /** Stdin is a terminal (line editing, Ctrl+C) rather than a pipe. */
  interactive: boolean;
  /** Dims hints (colours off by default). */
  dim?(text: string): string;
  /** The progress spinner: kept away while the user pastes, cleared when something is said. */
  progress?: {
    suspend<T>(fn: () => Promise<T>): Promise<T>;
    touch(): void;
  };
}

/** One line of the answer: is it the end, or a request to read the clipboard? */
export function answerLine(line: string, first: boolean): "eof" | "clipboard" | "text" {
  const t = line.trim();
  if (t === EOF_MARK) return "eof";
  if (first && (t === "" || t === "/paste")) return "clipboard";
  return "text";
}

/** The paste port over the terminal (or piped standard input). */
export function terminalPastePort(o: PastePortOptions): PastePort {
  const dim = o.dim ?? ((t: string) => t);
  const quiet = <T>(fn: () => Promise<T>) => o.progress ? o.progress.suspend(fn) : fn();
  return {
    say(text) {
      o.progress?.touch();
      o.write(`${text}\n`);
    },
    confirm: (message, signal) =>
      quiet(async () => {
        o.write(dim(`${message} (Ctrl+C cancels)`) + "\n");
        const line = o.interactive ? await terminalLine(signal) : await pipedLine(signal);
        return line !== null;
      }),
    read: (message, signal) =>
      quiet(async () => {
        o.write(dim(message) + "\n");
        return o.interactive ? await readTerminal(signal) : await readPiped(signal);
      }),
  };
}

async function pipedLine(signal?: AbortSignal): Promise<string | null> {
  if (signal?.aborted) return null;
  return await readLine("", { interactive: false });
}

async function readPiped(signal?: AbortSignal): Promise<PasteInput | null> {
  const lines: string[] = [];
  for (;;) {
    const line = await pipedLine(signal);
    if (line === null) break;
    const kind = answerLine(line, lines.length === 0);
    if (kind === "eof") break;
    if (kind === "clipboard") return { kind: "clipboard" };
    lines.push(line);
  }
  if (signal?.aborted || lines.length === 0) return null;
  return { kind: "text", text: lines.join("\n") + "\n" };
}

/** One line from the terminal; null on Ctrl+C, Ctrl+D or abort. */
function terminalLine(signal?: AbortSignal): Promise<string | null> {
  return collect(signal, (line, done) => done(line));
}

async function readTerminal(signal?: AbortSignal): Promise<PasteInput | null> {
  const lines: string[] = [];
  let clipboard = false;
  const end = await collect(signal, (line, done) => {
    const kind = answerLine(line, lines.length === 0);
    if (kind === "clipboard") {
      clipboard = true;
      done("");
    } else if (kind === "eof") done("");
    else lines.push(line);
  }, () => lines.length > 0);
  if (clipboard) return { kind: "clipboard" };
  if (end === null || lines.length === 0) return null;
  return { kind: "text", text: lines.join("\n") + "\n" };
}

/**
 * Reads terminal lines into `onLine` until it calls `done`. Ctrl+D ends with
 * "" when `closeEnds()` holds (some text came), else null; Ctrl+C or the
 * signal end with null.
 */
async function collect(
  signal: AbortSignal | undefined,
  onLine: (line: string, done: (value: string) => void) => void,
  closeEnds: () => boolean = () => false,
): Promise<string | null> {
  const { createInterface } = await loadReadline();
  return await new Promise((resolve) => {
    if (signal?.aborted) return resolve(null);
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    let finished = false;
    const finish = (value: string | null) => {
      if (finished) return;
      finished = true;
      signal?.removeEventListener("abort", onAbort);
      rl.close();
      resolve(value);
    };
    const onAbort = () => finish(null);
    signal?.addEventListener("abort", onAbort);
    rl.on("SIGINT", () => {
      process.stdout.write("\n");
      finish(null);
    });
    rl.on("close", () => finish(closeEnds() ? "" : null));
    rl.on("line", (line) => onLine(line, (v) => finish(v)));
    rl.setPrompt("");
  });
}
