/**
 * A yes/no question in the terminal for the sandbox: "Allow once" or
 * "Deny", chosen with the arrow keys; the detail line is shown above it.
 * Cancelling (Ctrl+C) counts as "Deny".
 *
 * @module
 */
import type { Palette } from "../ui/colors.ts";

/** Creates the question; only use it when stdin is a terminal. */
export function terminalYesNo(
  write: (text: string) => void,
  c: Palette,
): (question: string, detail: string) => Promise<boolean> {
  return async (question, detail) => {
    write(c.yellow(`  ${detail}`) + "\n");
    const { default: select } = await import("@inquirer/select");
    try {
      return await select<boolean>({
        message: question,
        choices: [
          { name: "Allow once", value: true },
          { name: "Deny", value: false },
        ],
      });
    } catch (e) {
      if (e instanceof Error && e.name === "ExitPromptError") return false;
      throw e;
    }
  };
}
