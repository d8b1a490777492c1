/**
 * Slash commands of the chat.
 *
 * @module
 */
import type { CliIO } from "../io.ts";
import { slashUndo } from "./undo.ts";
import type { AgentSession } from "../session.ts";
import type { Palette } from "../ui/colors.ts";

const HELP: [string, string][] = [
  ["/help", "list these commands"],
  ["/plan", "switch to plan mode (read-only tools, a plan as the answer)"],
  ["/agent", "switch to agent mode (all tools), keeping the conversation"],
  ["/permissions", "list the saved permission rules"],
  ["/undo", "revert the last tool call's file changes (--all, --force)"],
  ["/exit", "quit (also /quit or Ctrl+D)"],
];

/** Handles one slash command; returns "exit" when the chat should end. */
export async function handleSlash(
  text: string,
  session: AgentSession,
  io: CliIO,
  c: Palette,
): Promise<"exit" | "handled"> {
  const [cmd] = text.split(/\s+/);
  switch (cmd) {
    case "/exit":
    case "/quit":
      return "exit";
    case "/help":
      io.out(HELP.map(([k, v]) => `  ${c.bold(k.padEnd(8))} ${v}`).join("\n") + "\n");
      io.out(c.dim("  Ctrl+C cancels the running reply or tool.\n"));
      return "handled";
    case "/permissions": {
      const { permissionsText } = await import("./permissions.ts");
      io.out(await permissionsText({ homeDir: session.homeDir, cwd: session.cwd }));
      return "handled";
    }
    case "/undo":
      await slashUndo(text.slice(5), session.backups, io, session.cwd);
      return "handled";
    case "/plan":
    case "/agent":
      session.setMode(cmd === "/plan" ? "plan" : "agent");
      io.out(c.dim(`${cmd.slice(1)} mode\n`));
      return "handled";
    default:
      io.out(c.yellow(`Unknown command "${cmd}": type /help for the list\n`));
      return "handled";
  }
}
