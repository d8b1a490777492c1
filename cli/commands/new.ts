/**
 * `minoc new [dir]`: a new project by interview. In a terminal minoc asks a
 * few questions (purpose, language, interface, dependencies, tests), then the
 * chat builds the project step by step from the answers; with `--task "…"`
 * the answers come from the text and the build runs like `minoc run`. In the
 * chat, `/new` runs the same interview.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { isAbsolute, resolve } from "node:path";
import {
  briefFromText,
  INTERFACE_CHOICES,
  LANGUAGE_CHOICES,
  type ProjectBrief,
  renderBrief,
} from "../../core/agent/project_interview.ts";
import { isEmptyProject } from "../../core/agent/project.ts";
import { scanTree } from "../../core/agent/project_scan.ts";
import { CliError, type CliIO, EXIT } from "../io.ts";
import { ownOptionsWin, withModelOptions } from "../options.ts";
import type { RunOptions } from "./run.ts";
import { type Palette, palette } from "../ui/colors.ts";
import type { SlashResult } from "./slash_state.ts";

/** The `new` command. */
export function newCommand(io: CliIO) {
  return withModelOptions(
    new Command("new")
      .description("start a new project: a few questions, a plan of files, then the build")
      .argument(
        "[dir]",
        "folder of the new project, created when missing (default: the current one)",
      )
      .option(
        "--task <text>",
        "take the answers from this text instead of asking (no terminal needed)",
      ),
  ).action(async (dir, _opts, cmd) => {
    // Model options are added untyped (see cli/options.ts); name their type here.
    const opts = ownOptionsWin(cmd) as RunOptions & { task?: string };
    if (opts.task === undefined && !Deno.stdin.isTerminal()) {
      throw new CliError(
        'minoc new asks its questions in a terminal: pass --task "…" to give the answers as text',
        EXIT.usage,
      );
    }
    const cwd = await prepareFolder(dir ?? opts.cwd ?? ".");
    if (opts.task !== undefined) {
      const { runCommand } = await import("./run.ts");
      await runCommand(io, renderBrief(briefFromText(opts.task)), { ...opts, cwd });
      return;
    }
    const { chat } = await import("./chat.ts");
    await chat(io, { ...opts, cwd }, "/new");
  });
}

/** Creates `dir` when missing and checks that it holds no project yet; returns its real path. */
export async function prepareFolder(dir: string): Promise<string> {
  const path = isAbsolute(dir) ? dir : resolve(Deno.cwd(), dir);
  try {
    await Deno.mkdir(path, { recursive: true });
  } catch (e) {
    throw new CliError(`Cannot create folder "${path}": ${(e as Error).message}`, EXIT.usage);
  }
  const scan = scanTree(path, { timeBudgetMs: 200, keepDepth: 1 });
  if (!isEmptyProject(scan.root)) {
    throw new CliError(
      `Folder "${path}" is not empty: minoc new starts a project in an empty folder ` +
        "(run minoc there to work on what it holds)",
      EXIT.usage,
    );
  }
  return await Deno.realPath(path);
}

/** `/new` in the chat: the interview, then its request goes to the agent. */
export async function slashNew(io: CliIO, c: Palette): Promise<SlashResult> {
  if (!Deno.stdin.isTerminal()) {
    io.out(c.yellow("/new asks its questions in a terminal: standard input is not one\n"));
    return "handled";
  }
  const brief = await interview(io, c);
  if (!brief) {
    io.out(c.dim("New project cancelled\n"));
    return "handled";
  }
  const request = renderBrief(brief);
  io.out(c.dim(request.split("\n").filter((l) => /^\w+: /.test(l)).join("\n")) + "\n");
  return { resend: request };
}

const OTHER = "__other__";

/** Asks the interview's questions; null when the user cancels (Ctrl+C). */
export async function interview(
  io: CliIO,
  c: Palette = palette(false),
): Promise<ProjectBrief | null> {
  const { confirm, input, select } = await import("@inquirer/prompts");
  io.out(c.bold("New project") + c.dim(": a few questions (Ctrl+C cancels)\n"));
  try {
    const purpose = await input({
      message: "What should it do?",
      validate: (v) => v.trim() !== "" || "Say in a few words what it is for",
    });
    const language = await pick(select, input, "Language", LANGUAGE_CHOICES.map((l) => l.name));
    const iface = await pick(select, input, "Interface", INTERFACE_CHOICES);
    const deps = (await input({
      message: "Dependencies (packages to use, or none)",
      default: "none",
    })).trim();
    const tests = await confirm({ message: "Write tests and run them as it goes?", default: true });
    return {
      purpose: purpose.trim(),
      ...(language ? { language } : {}),
      ...(iface ? { interface: iface } : {}),
      dependencies: /^(none|no|-)?$/i.test(deps) ? "none (standard library only)" : deps,
      tests,
    };
  } catch (e) {
    if (e instanceof Error && /ExitPromptError|AbortPromptError/.test(e.name)) return null;
    throw e;
  }
}

type Select = typeof import("@inquirer/prompts").select;
type Input = typeof import("@inquirer/prompts").input;

async function pick(
  select: Select,
  input: Input,
  message: string,
  names: readonly string[],
): Promise<string | undefined> {
  const choices = [
    ...names.map((n) => ({ name: n, value: n })),
    { name: "Other…", value: OTHER },
  ];
  const chosen = await select({ message, choices });
  if (chosen !== OTHER) return chosen;
  const typed =
    (await input({ message: `${message} (type it, or leave empty to let minoc choose)` }))
      .trim();
  return typed === "" ? undefined : typed;
}
