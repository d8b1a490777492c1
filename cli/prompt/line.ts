/**
 * Reads one line of user input. On a terminal: line editing, Ctrl+C clears the
 * line, Ctrl+D on an empty line ends input. Without a terminal: the next line
 * of standard input. Returns null at the end of input.
 *
 * @module
 */
import type { Interface } from "node:readline";
import process from "node:process";

let piped: AsyncIterator<string> | null = null;
let pipedReader: Interface | null = null;

/** `node:readline`, loaded at the first prompt rather than at every start (~2.5 ms). */
export function loadReadline(): Promise<typeof import("node:readline")> {
  return readline ??= import("node:readline");
}

let readline: Promise<typeof import("node:readline")> | undefined;

/** Reads one line; null when input has ended (Ctrl+D, or EOF when piped). */
export function readLine(prompt: string, opts: { interactive: boolean }): Promise<string | null> {
  return opts.interactive ? readFromTerminal(prompt) : readFromPipe();
}

async function readFromTerminal(prompt: string): Promise<string | null> {
  const { createInterface } = await loadReadline();
  return await new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    let done = false;
    const finish = (value: string | null) => {
      if (done) return;
      done = true;
      rl.close();
      resolve(value);
    };
    rl.on("SIGINT", () => {
      if (rl.line === "") {
        process.stdout.write("\n(Ctrl+D or /exit to quit)\n");
      } else {
        process.stdout.write("\n");
      }
      rl.write(null, { ctrl: true, name: "u" });
      rl.prompt();
    });
    rl.on("close", () => finish(null));
    rl.on("line", (line) => finish(line));
    rl.setPrompt(prompt);
    rl.prompt();
  });
}

async function readFromPipe(): Promise<string | null> {
  if (!piped) {
    const { createInterface } = await loadReadline();
    pipedReader = createInterface({ input: process.stdin, terminal: false });
    piped = pipedReader[Symbol.asyncIterator]();
  }
  const next = await piped.next();
  if (next.done) {
    pipedReader?.close();
    return null;
  }
  return next.value;
}
