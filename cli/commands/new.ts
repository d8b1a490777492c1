/**
 * `minoc new [dir]`: a new project by interview. In a terminal minoc asks a
 * few questions (purpose, language, interface, dependencies, tests), then the
 * chat builds the project step by step from the answers; with `--task "…"`
 * the answers come from the text and the build runs like `minoc run`. In the
 * chat, `/new` runs the same interview (`slash_new.ts`).
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { isAbsolute, resolve } from "node:path";
import { briefFromText, renderBrief } from "../../core/agent/project_interview.ts";
import { isEmptyProject } from "../../core/agent/project.ts";
import { scanTree } from "../../core/agent/project_scan.ts";
import { CliError, type CliIO, EXIT } from "../io.ts";
import { ownOptionsWin, withModelOptions } from "../options.ts";
import type { RunOptions } from "./run.ts";

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
