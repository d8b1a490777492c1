/**
 * How commands talk to the outside world, so tests can run them in-process,
 * and how they report failure: a {@link CliError} carrying a documented exit
 * code. Only `main.ts` turns that code into `Deno.exit`.
 *
 * @module
 */
import { visible } from "../core/protocol/visible.ts";

/** Documented exit codes. */
export const EXIT = {
  /** The task finished, or the command succeeded. */
  ok: 0,
  /** The task failed or hit a limit; the server was unreachable. */
  failed: 1,
  /** Usage or configuration error. */
  usage: 2,
  /** The session to continue is in use by another minoc process. */
  busy: 3,
  /** Interrupted by the user. */
  interrupted: 130,
} as const;

/** A failure with a message for the user and an exit code. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: number = EXIT.failed) {
    super(message);
    this.name = "CliError";
  }
}

/** Standard streams of one command invocation. */
export interface CliIO {
  /** Writes to standard output as is (add your own newlines). */
  out(text: string): void;
  /** Writes to standard error as is. */
  err(text: string): void;
  /** Reads all of standard input as UTF-8 (CRLF kept). */
  readStdin(): Promise<string>;
  /** Whether stdin and stdout are both terminals. */
  readonly interactive: boolean;
  /** Exit code to use when the command returns normally (default 0). */
  exitCode: number;
}

/**
 * Writes `warning: <message>` to standard error, the message's control
 * characters shown as escapes (it may quote a file, a server or a skill).
 */
export function warn(io: Pick<CliIO, "err">, message: string): void {
  io.err(`warning: ${visible(message)}\n`);
}

/** The real process streams. */
export function processIO(): CliIO {
  const enc = new TextEncoder();
  return {
    out: (t) => writeAll(Deno.stdout, enc.encode(t)),
    err: (t) => writeAll(Deno.stderr, enc.encode(t)),
    readStdin: async () =>
      new TextDecoder().decode(await new Response(Deno.stdin.readable).bytes()),
    interactive: Deno.stdin.isTerminal() && Deno.stdout.isTerminal(),
    exitCode: EXIT.ok,
  };
}

/** An in-memory IO for tests: collects output, serves `stdin`. */
export function memoryIO(stdin = ""): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    out(t: string) {
      io.stdout += t;
    },
    err(t: string) {
      io.stderr += t;
    },
    readStdin: () => Promise.resolve(stdin),
    interactive: false,
    exitCode: EXIT.ok as number,
  };
  return io;
}

function writeAll(w: { writeSync(p: Uint8Array): number }, data: Uint8Array): void {
  let off = 0;
  while (off < data.length) off += w.writeSync(data.subarray(off));
}
