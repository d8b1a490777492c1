/**
 * The question the chat asks when the session to continue is in use by
 * another minoc process: continue a copy of it as a new session (fork),
 * start a new empty session, or quit. Only use it when stdin is a terminal.
 *
 * @module
 */
import { CliError, EXIT } from "../io.ts";

/** What the user chose for a session in use. */
export type BusyChoice = "fork" | "new" | "quit";

/** Asks what to do; Ctrl+C ends minoc (exit 130). */
export async function askBusy(sessionId: string, holder: string): Promise<BusyChoice> {
  const { select } = await import("@inquirer/prompts");
  try {
    return await select<BusyChoice>({
      message: `Session ${sessionId} is in use by another minoc process (${holder})`,
      choices: [
        { name: "Fork it: continue a copy of it as a new session", value: "fork" },
        { name: "Start a new session", value: "new" },
        { name: "Quit", value: "quit" },
      ],
      loop: false,
    });
  } catch (e) {
    if (e instanceof Error && e.name === "ExitPromptError") {
      throw new CliError("Cancelled", EXIT.interrupted);
    }
    throw e;
  }
}
