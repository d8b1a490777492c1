/**
 * `minoc`: the interactive chat. A prompt line, the reply streamed as it
 * arrives, Ctrl+C cancels the running reply or tool, Ctrl+D or /exit quits.
 *
 * @module
 */
import { runTask } from "../../core/agent/loop.ts";
import { noServerStart } from "../connect.ts";
import { openSession } from "../session.ts";
import { chooseResume } from "../resume.ts";
import { bridgeSetup } from "../session_bridge.ts";
import { CliError, type CliIO, EXIT } from "../io.ts";
import { terminalConfirm } from "../prompt/approve.ts";
import { terminalStep } from "../prompt/step.ts";
import { dryRunTally, renderDryRun } from "../ui/dry_run.ts";
import { dryRunReport } from "../../core/permission/dry_run_report.ts";
import { readLine } from "../prompt/line.ts";
import { palette } from "../ui/colors.ts";
import { REASONING } from "../ui/reasoning_view.ts";
import { createRenderer } from "../ui/render.ts";
import { createProgress, withProgress } from "../ui/progress.ts";
import { visible } from "../../core/protocol/visible.ts";
import type { ChatState } from "./slash_state.ts";
import { VERSION } from "../version.ts";
import type { AgentSession } from "../session.ts";
import { type CommonOptions, settingsFrom } from "./common.ts";
import { handleSlash } from "./slash.ts";
import { terminalYesNo } from "../prompt/yes_no.ts";

const NO_USER = "No user is available to answer; decide yourself and continue.";

/** Runs the chat until the user quits; `firstLine` is handled as if typed first (`minoc new`: "/new"). */
export async function chat(io: CliIO, opts: CommonOptions, firstLine?: string): Promise<void> {
  const interactive = Deno.stdin.isTerminal();
  // Nothing configured: a local server if one answers, else the copy/paste bridge.
  const start = noServerStart(opts, {
    write: io.out,
    dim: palette(Deno.stdout.isTerminal()).dim,
    interactive,
    bridge: true,
  });
  const settings = await settingsFrom(opts, start.connect);
  opts = start.opts();
  if (opts.step && !interactive) {
    throw new CliError("--step needs a terminal: standard input is not one", EXIT.usage);
  }
  const resume = await chooseResume(opts, settings.cwd, { interactive }) ?? undefined;
  const tty = Deno.stdout.isTerminal();
  const c = palette(tty);
  const progress = createProgress({ enabled: settings.progress });
  const render = createRenderer({
    write: io.out,
    tty,
    colors: c,
    quiet: opts.quiet === true,
    markdown: tty && c.isColorSupported,
    reasoning: Object.assign(REASONING, { full: opts.showReasoning === true }),
  });
  let current: AbortController | null = null;
  // deno-lint-ignore prefer-const
  let session: AgentSession | undefined;
  session = await openSession({
    settings,
    mode: opts.plan ? "plan" : resume?.session.mode ?? "agent",
    resume,
    bridge: bridgeSetup(opts, {
      write: io.out,
      interactive,
      dim: c.dim,
      progress,
    }),
    record: opts.session !== false,
    mcpStart: "open",
    autoApprove: opts.yes === true,
    sandbox: opts.sandbox,
    yesNo: interactive ? terminalYesNo(io.out, c) : undefined,
    confirm: interactive
      ? terminalConfirm(io.out, c, () => current?.abort(), () => session?.approval)
      : null,
    ask: interactive ? (q) => progress.suspend(() => askUser(q)) : () => Promise.resolve(NO_USER),
    emit: withProgress(progress, render),
    onOutput: (t) => {
      progress.touch();
      io.out(visible(t));
    },
    warn: (m) => {
      progress.touch();
      io.err(c.yellow(`warning: ${visible(m)}`) + "\n");
    },
    dryRun: opts.dryRun === true,
    debug: opts.debug === true,
    debugLine: (line) => io.out(c.dim(`  ${line}`) + "\n"),
    step: interactive
      ? { prompt: terminalStep(io.out, c), on: opts.step === true, onAbort: () => current?.abort() }
      : undefined,
  });
  const onInterrupt = () => {
    if (current && !current.signal.aborted) {
      progress.end();
      io.out(c.yellow("\n^C cancelling…\n"));
      current.abort();
    }
  };
  Deno.addSignalListener("SIGINT", onInterrupt);
  const state: ChatState = {
    opts,
    progress,
    async cancellable(fn) {
      current = new AbortController();
      try {
        return await fn(current.signal);
      } finally {
        current = null;
      }
    },
  };
  if (!opts.quiet) io.out(c.dim(`minoc ${VERSION} · ${settings.params.model} · ${settings.cwd}\n`));
  if (resume) {
    const n = resume.session.messages.length;
    const how = resume.forkInto === undefined
      ? `Resumed session ${resume.session.sessionId}`
      : `Forked session ${resume.session.sessionId} into ${session.recorder.sessionId}`;
    io.out(c.dim(`${how} · ${n} messages\n`));
  }
  if (!opts.quiet) io.out(c.dim("Type a request, /help for commands, Ctrl+D or /exit to quit.\n"));
  if (firstLine === undefined && !resume && session.project().empty) {
    // An empty folder: start a new project by interview (Ctrl+C skips to a plain chat).
    if (interactive) firstLine = "/new";
    else if (!opts.quiet) io.out(c.dim("This folder is empty: describe what to build.\n"));
  }
  try {
    while (true) {
      const prefix = session.mode() === "plan" ? "plan › " : "› ";
      const line = firstLine ?? await readLine(c.bold(prefix), { interactive });
      firstLine = undefined;
      if (line === null) break;
      const text = line.trim();
      if (text === "") continue;
      let request = text;
      if (text.startsWith("/")) {
        const r = await handleSlash(text, session, io, c, state);
        if (r === "exit") break;
        if (r === "handled") continue;
        request = r.resend;
      }
      current = new AbortController();
      state.lastOutcome = await runTask(session.deps, session.convo, request, current.signal);
      current = null;
      // A new project has files now: describe them instead of the empty folder.
      if (session.project().empty) await session.refresh();
      if (session.dryRun) {
        io.out(c.dim(dryRunTally(await dryRunReport(session.dryRun, session.cwd))));
      }
    }
    if (session.dryRun) io.out(renderDryRun(await dryRunReport(session.dryRun, session.cwd), c));
  } finally {
    progress.end();
    Deno.removeSignalListener("SIGINT", onInterrupt);
    await session.close();
  }
  io.out("\n");
}

async function askUser(question: string): Promise<string> {
  const { default: input } = await import("@inquirer/input");
  try {
    return await input({ message: visible(question) });
  } catch {
    return "The user did not answer.";
  }
}
