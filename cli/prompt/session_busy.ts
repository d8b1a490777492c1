/**
 * The question the chat asks when the session to continue is in use by
 * another minoc process: continue a copy of it as a new session (fork),
 * start a new empty session, or quit. A plain line question (f / n / q), so
 * it needs no prompt library. Only use it when stdin is a terminal.
 *
 * @module
 */
import { readLine } from "./line.ts";

/** What the user chose for a session in use. */
export type BusyChoice = "fork" | "new" | "quit";

const ANSWERS: Record<string, BusyChoice> = {
  f: "fork",
  fork: "fork",
  n: "new",
  new: "new",
  q: "quit",
  quit: "quit",
};

/** Asks what to do until the answer is one of the choices; Ctrl+D quits. */
export async function askBusy(sessionId: string, holder: string): Promise<BusyChoice> {
  const out = (t: string) => Deno.stdout.writeSync(new TextEncoder().encode(t));
  out(
    `Session ${sessionId} is in use by another minoc process (${holder}).\n` +
      "  f  Fork it: continue a copy of it as a new session\n" +
      "  n  Start a new session\n" +
      "  q  Quit\n",
  );
  while (true) {
    const line = await readLine("Your choice [f/n/q]: ", { interactive: true });
    if (line === null) return "quit";
    const choice = ANSWERS[line.trim().toLowerCase()];
    if (choice) return choice;
    out(`Unknown answer "${line.trim()}": type f, n or q\n`);
  }
}
