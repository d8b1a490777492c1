/**
 * Slash commands of the chat.
 *
 * @module
 */
import type { CliIO } from "../io.ts";
import { slashUndo } from "./undo.ts";
import { slashPaste, slashProvider } from "./slash_bridge.ts";
import type { AgentSession } from "../session.ts";
import type { Palette } from "../ui/colors.ts";
import type { ChatState, SlashResult } from "./slash_state.ts";

const HELP: [string, string][] = [
  ["/help", "list these commands"],
  ["/plan", "switch to plan mode (read-only tools, a plan as the answer)"],
  ["/agent", "switch to agent mode (all tools), keeping the conversation"],
  ["/permissions", "list the saved permission rules"],
  ["/mcp", "the MCP servers, their state and tools"],
  ["/undo", "revert the last tool call's file changes (--all, --force)"],
  ["/step", "on|off: review each tool call before it runs (step mode)"],
  ["/provider", "bridge|openai: copy/paste with a web chat, or the model server"],
  ["/paste", "while minoc waits for a web chat's answer: read it from the clipboard"],
  ["/refresh", "analyse the project again (tree, manifests, commands, AGENTS.md)"],
  ["/new", "start a new project: a few questions, then the agent builds it"],
  ["/model", "list configured models; /model <name> [--save] switches (and saves the default)"],
  ["/models", "list the models the server offers"],
  ["/compact", "shorten old tool outputs and summarise older turns now"],
  ["/clear", "start a fresh conversation (the session file keeps the old one)"],
  ["/cost", "the session's tokens, turns, tool calls and duration (also /usage)"],
  ["/progress", "on|off: the spinner during long waits"],
  ["/retry", "re-send the last turn after a reply failed or was cut off"],
  ["/reasoning", "show the last reply's reasoning; on|off: show reasoning in full as it streams"],
  ["/workflow", "<goal>: plan, act within budgets, reflect (--budget-calls/-tokens/-time)"],
  ["/exit", "quit (also /quit or Ctrl+D)"],
];

const width = Math.max(...HELP.map(([k]) => k.length));

/** Handles one slash command; returns "exit" when the chat should end. */
export async function handleSlash(
  text: string,
  session: AgentSession,
  io: CliIO,
  c: Palette,
  state?: ChatState,
): Promise<SlashResult> {
  const [cmd] = text.split(/\s+/);
  const args = text.slice(cmd.length).trim();
  switch (cmd) {
    case "/exit":
    case "/quit":
      return "exit";
    case "/help":
      io.out(HELP.map(([k, v]) => `  ${c.bold(k.padEnd(width))} ${v}`).join("\n") + "\n");
      io.out(c.dim("  Ctrl+C cancels the running reply or tool.\n"));
      return "handled";
    case "/permissions": {
      const { permissionsText } = await import("./permissions.ts");
      io.out(await permissionsText({ homeDir: session.homeDir, cwd: session.cwd }));
      return "handled";
    }
    case "/mcp": {
      const { mcpStatusText } = await import("./mcp.ts");
      io.out(mcpStatusText(session.mcpServers(), session.cwd));
      return "handled";
    }
    case "/undo": {
      const note = (await import("./undo_mcp.ts")).mcpUndoNote(
        session.recorder.snapshot().messages,
      );
      if (note && !/--all\b/.test(args)) {
        io.out(c.yellow(note));
        return "handled";
      }
      await slashUndo(text.slice(5), session.backups, io, session.cwd);
      return "handled";
    }
    case "/step":
      stepSwitch(text.slice(5).trim(), session, io, c);
      return "handled";
    case "/provider":
      await slashProvider(text.slice(9).trim(), session, io, c);
      return "handled";
    case "/paste":
      slashPaste(session, io, c);
      return "handled";
    case "/new":
      return await (await import("./slash_new.ts")).slashNew(io, c);
    case "/refresh": {
      const p = await session.refresh();
      io.out(c.dim(
        `project analysed: ${p.facts.root.files} files, ~${p.tokens} tokens, ` +
          `${Math.round(p.ms.total)} ms\n`,
      ));
      return "handled";
    }
    case "/model":
    case "/models":
      await (await import("./slash_models.ts")).slashModel(cmd, args, session, io, c, {
        opts: state?.opts ?? {},
      });
      return "handled";
    case "/compact":
    case "/clear":
    case "/cost":
    case "/usage":
    case "/progress":
    case "/retry":
      if (!state) break;
      return await (await import("./slash_context.ts")).slashContext(
        cmd,
        args,
        session,
        io,
        c,
        state,
      );
    case "/reasoning":
      (await import("../ui/reasoning_view.ts")).slashReasoning(args, c, io.out);
      return "handled";
    case "/workflow":
      await (await import("./workflow.ts")).slashWorkflow(args, session, io, c);
      return "handled";
    case "/plan":
    case "/agent":
      session.setMode(cmd === "/plan" ? "plan" : "agent");
      io.out(c.dim(`${cmd.slice(1)} mode\n`));
      return "handled";
  }
  io.out(c.yellow(`Unknown command "${cmd}": type /help for the list\n`));
  return "handled";
}

function stepSwitch(arg: string, session: AgentSession, io: CliIO, c: Palette): void {
  const stepper = session.stepper;
  if (!stepper) {
    io.out(c.yellow("Step mode needs a terminal: standard input is not one\n"));
    return;
  }
  if (arg === "on" || arg === "off") stepper.set(arg === "on");
  else if (arg !== "") {
    io.out(c.yellow(`Unknown argument "${arg}": use /step on or /step off\n`));
    return;
  }
  io.out(c.dim(`step mode is ${stepper.on ? "on" : "off"}\n`));
}
