/**
 * `minoc`: the interactive chat. A prompt line, the reply streamed as it
 * arrives, Ctrl+C cancels the running reply or tool, Ctrl+D or /exit quits.
 *
 * @module
 */
import { runTask } from "../../core/agent/loop.ts";
import type { CliIO } from "../io.ts";
import { terminalConfirm } from "../prompt/approve.ts";
import { readLine } from "../prompt/line.ts";
import { palette } from "../ui/colors.ts";
import { createRenderer } from "../ui/render.ts";
import { VERSION } from "../version.ts";
import type { AgentSession } from "../session.ts";
import { type CommonOptions, settingsFrom } from "./common.ts";
import { handleSlash } from "./slash.ts";

const NO_USER = "No user is available to answer; decide yourself and continue.";

/** Runs the chat until the user quits. */
export async function chat(io: CliIO, opts: CommonOptions): Promise<void> {
  const settings = await settingsFrom(opts);
  const { openSession } = await import("../session.ts");
  const interactive = Deno.stdin.isTerminal();
  const tty = Deno.stdout.isTerminal();
  const c = palette(tty);
  let current: AbortController | null = null;
  // deno-lint-ignore prefer-const
  let session: AgentSession | undefined;
  session = await openSession({
    settings,
    mode: opts.plan ? "plan" : "agent",
    record: opts.session !== false,
    autoApprove: opts.yes === true,
    confirm: interactive
      ? terminalConfirm(io.out, c, () => current?.abort(), () => session?.approval)
      : null,
    ask: interactive ? askUser : () => Promise.resolve(NO_USER),
    emit: createRenderer({ write: io.out, tty, colors: c }),
    onOutput: (t) => io.out(t),
    warn: (m) => io.err(c.yellow(`warning: ${m}`) + "\n"),
  });
  const onInterrupt = () => {
    if (current && !current.signal.aborted) {
      io.out(c.yellow("\n^C cancelling…\n"));
      current.abort();
    }
  };
  Deno.addSignalListener("SIGINT", onInterrupt);
  io.out(c.dim(`minoc ${VERSION} · ${settings.params.model} · ${settings.cwd}\n`));
  io.out(c.dim("Type a request, /help for commands, Ctrl+D or /exit to quit.\n"));
  try {
    while (true) {
      const prefix = session.mode() === "plan" ? "plan › " : "› ";
      const line = await readLine(c.bold(prefix), { interactive });
      if (line === null) break;
      const text = line.trim();
      if (text === "") continue;
      if (text.startsWith("/")) {
        if (await handleSlash(text, session, io, c) === "exit") break;
        continue;
      }
      current = new AbortController();
      await runTask(session.deps, session.convo, text, current.signal);
      current = null;
    }
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
    await session.close();
  }
  io.out("\n");
}

async function askUser(question: string): Promise<string> {
  const { input } = await import("@inquirer/prompts");
  try {
    return await input({ message: question });
  } catch {
    return "The user did not answer.";
  }
}
