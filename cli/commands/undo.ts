/**
 * `minoc undo [--session ID] [--all] [--force] [--json]`: reverts file
 * changes minoc made in a session, from the backups saved before each change.
 *
 * - The session is the latest one recorded in the current directory, or
 *   `--session ID` (a unique start of an id will do).
 * - Without `--all`, the last change group (one tool call) that still has
 *   something to undo is reverted; run it again to go back one more call.
 *   `--all` reverts every remaining change of the session, newest first.
 * - A file changed since by someone else is left alone with a message,
 *   unless `--force`.
 *
 * Exit codes: 0 when everything asked for was reverted (or there was nothing
 * to undo), 1 when a change was left alone, 2 for an unknown session id or
 * no session in this directory.
 *
 * The chat's `/undo [--all] [--force]` calls {@link slashUndo} with the live
 * session's store.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { join, resolve } from "node:path";
import { type BackupStore, createBackupStore } from "../../core/history/backups.ts";
import { findSession } from "../../core/history/lookup.ts";
import { listSessions } from "../../core/history/store.ts";
import { formatUndoReport, undoChanges, type UndoReport } from "../../core/history/undo.ts";
import { CliError, type CliIO, EXIT } from "../io.ts";
import { visible } from "../../core/protocol/visible.ts";

/** Where sessions and backups live and where the command runs. */
export interface UndoEnv {
  /** `<home>/history/sessions`. */
  sessionsDir: string;
  /** `<home>/history/backups`. */
  backupsDir: string;
  cwd: string;
}

/**
 * The `undo` command.
 *
 * @example
 * ```ts
 * await undoCommand(io, { sessionsDir, backupsDir, cwd }).parseAsync(["--all"], { from: "user" });
 * ```
 */
export function undoCommand(io: CliIO, env: UndoEnv): Command {
  return new Command("undo")
    .description(
      "revert the file changes of a session (default: the last tool call's, latest session here)",
    )
    .option("--session <id>", "the session (default: the latest one in this directory)")
    .option("--all", "revert every change of the session, newest first")
    .option("--force", "revert files changed since by someone else too")
    .option("--json", "print the report as one JSON object")
    .action(async (opts) => {
      const sessionId = await pickSession(env, opts.session);
      const store = await createBackupStore(join(env.backupsDir, sessionId), sessionId);
      const report = await undoChanges(store, {
        all: opts.all === true,
        force: opts.force === true,
      });
      if (opts.json) io.out(JSON.stringify({ sessionId, ...report }) + "\n");
      else io.out(visible(`Session ${sessionId}\n${formatUndoReport(report, env.cwd)}`));
      if (report.skipped.length > 0) io.exitCode = EXIT.failed;
    });
}

/**
 * The chat's `/undo`: `args` is the text after `/undo` (`--all`, `--force`).
 * Prints what was reverted and returns the report (null when the session
 * keeps no backups, e.g. with `--no-session`).
 *
 * @example
 * ```ts
 * case "/undo": await slashUndo(text.slice(5), session.backups, io, cwd); return "handled";
 * ```
 */
export async function slashUndo(
  args: string,
  store: BackupStore | null,
  io: CliIO,
  cwd: string,
): Promise<UndoReport | null> {
  const words = args.trim().split(/\s+/).filter(Boolean);
  const unknown = words.find((w) => w !== "--all" && w !== "--force");
  if (unknown !== undefined) {
    io.out(`Unknown option "${unknown}" for /undo: use /undo, /undo --all or /undo --force\n`);
    return null;
  }
  if (store === null) {
    io.out("Nothing to undo: this session keeps no backups (--no-session)\n");
    return null;
  }
  const report = await undoChanges(store, {
    all: words.includes("--all"),
    force: words.includes("--force"),
  });
  io.out(visible(formatUndoReport(report, cwd)));
  return report;
}

async function pickSession(env: UndoEnv, id: string | undefined): Promise<string> {
  if (id !== undefined) {
    const found = await findSession(env.sessionsDir, id);
    if (!found.ok) throw new CliError(found.message, EXIT.usage);
    return found.summary.id;
  }
  const dir = resolve(env.cwd);
  const project = await Deno.realPath(dir).catch(() => dir);
  const [latest] = await listSessions(env.sessionsDir, { projectPath: project });
  if (latest === undefined) {
    throw new CliError(
      `No session recorded in "${project}": nothing to undo (use --session ID)`,
      EXIT.usage,
    );
  }
  return latest.id;
}
