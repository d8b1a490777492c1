/**
 * `minoc history`: list, show, stats, export and prune recorded sessions.
 *
 * - `list [--project DIR] [--all] [--json]`: sessions of the current
 *   directory (or DIR, or every project), newest first.
 * - `show <id> [--json] [--full]`: a readable transcript; `id` may be a unique
 *   prefix.
 * - `stats [--project DIR] [--all] [--since DATE] [--json]`: per tool, per
 *   session, per model (see core/history/stats.ts for the definitions).
 * - `export <id> | --all [--project DIR] --format jsonl|openai [--output FILE]`.
 * - `prune --older-than 30d|4w [--project DIR] [--dry-run]`: deletes whole
 *   session files started before then, with their backups.
 * - `report [--since 30d] [--project DIR] [--model NAME] [-o FILE] [--open]`:
 *   an HTML report with charts (see history_report.ts).
 *
 * Exit codes: 0 on success, 2 for usage errors (an unknown session id, a bad
 * date or age, conflicting options).
 *
 * @module
 */
import { Command, Option } from "@commander-js/extra-typings";
import { dirname, join, resolve } from "node:path";
import type { SessionFile } from "../../interfaces/history.ts";
import { EXPORT_FORMATS, exportText } from "../../core/history/export.ts";
import { findSession, loadSessions, parseSince } from "../../core/history/lookup.ts";
import { deletePrunable, findPrunable, parseAge } from "../../core/history/prune.ts";
import { computeStats, formatStats } from "../../core/history/stats.ts";
import { listSessions, loadSession, type SessionSummary } from "../../core/history/store.ts";
import { textTable } from "../../core/history/text_table.ts";
import { renderTranscript } from "../../core/history/transcript.ts";
import { CliError, type CliIO, EXIT, warn } from "../io.ts";
import { addReport } from "./history_report.ts";
import type { HistoryEnv } from "./history_env.ts";
import { visible } from "../../core/protocol/visible.ts";

export type { HistoryEnv };

/**
 * The `history` command and its sub-commands.
 *
 * @example
 * ```ts
 * const io = memoryIO();
 * await historyCommand(io, { sessionsDir, cwd }).parseAsync(["list", "--json"], { from: "user" });
 * JSON.parse(io.stdout).length;
 * ```
 */
export function historyCommand(io: CliIO, env: HistoryEnv): Command {
  const history = new Command("history").description(
    "list, show, analyse, export and prune recorded sessions",
  );
  history.command("list").description("list sessions, newest first (default: this directory's)")
    .option("--project <dir>", "sessions recorded in this directory")
    .option("--all", "sessions of every project")
    .option("--json", "print a JSON array")
    .action(async (opts) => {
      const project = await projectOf(env, opts);
      const sessions = await listSessions(env.sessionsDir, project ? { projectPath: project } : {});
      if (opts.json) return io.out(JSON.stringify(sessions, null, 2) + "\n");
      io.out(visible(listText(sessions, project)));
    });
  history.command("show").description("print a session as a readable transcript")
    .argument("<id>", "session id (or a unique start of one)")
    .option("--json", "print the whole session file as JSON")
    .option("--full", "do not shorten long messages")
    .action(async (id, opts) => {
      const session = await sessionById(env, id);
      io.out(
        opts.json
          ? JSON.stringify(session, null, 2) + "\n"
          : visible(renderTranscript(session, opts)),
      );
    });
  history.command("stats").description(
    "tool, session and model statistics (default: this directory)",
  )
    .option("--project <dir>", "sessions recorded in this directory")
    .option("--all", "sessions of every project")
    .option("--since <date>", "sessions started on or after this date (YYYY-MM-DD or ISO 8601)")
    .option("--json", "print one JSON object")
    .action(async (opts) => {
      const since = opts.since === undefined ? undefined : dateOrThrow(opts.since);
      const projectPath = await projectOf(env, opts);
      const sessions = await loadSessions(env.sessionsDir, { projectPath, since }, warner(io));
      const stats = computeStats(sessions);
      io.out(opts.json ? JSON.stringify(stats, null, 2) + "\n" : formatStats(stats));
    });
  addExport(history, io, env);
  addPrune(history, io, env);
  addReport(history, io, env);
  return history;
}

function addExport(history: Command, io: CliIO, env: HistoryEnv): void {
  history.command("export").description(
    "export sessions as JSON lines or OpenAI chat fine-tuning lines",
  )
    .argument("[id]", "session id (or a unique start of one)")
    .option("--all", "every session (of every project, unless --project)")
    .option("--project <dir>", "with --all: only sessions recorded in this directory")
    .addOption(
      new Option("--format <format>", "jsonl: whole sessions; openai: chat examples")
        .choices(EXPORT_FORMATS).makeOptionMandatory(),
    )
    .option("--output <file>", "write to this file instead of standard output")
    .action(async (id, opts) => {
      if ((id === undefined) === (opts.all !== true)) {
        throw new CliError(
          "Give either a session id or --all, e.g. minoc history export --all --format openai",
          EXIT.usage,
        );
      }
      const projectPath = opts.project === undefined
        ? undefined
        : await projectOf(env, { project: opts.project });
      const sessions = id === undefined
        ? await loadSessions(env.sessionsDir, { projectPath }, warner(io))
        : [await sessionById(env, id)];
      const text = exportText(sessions, opts.format);
      if (opts.output === undefined) return io.out(text);
      const file = resolve(env.cwd, opts.output);
      try {
        await Deno.writeTextFile(file, text);
      } catch (error) {
        throw new CliError(`Cannot write "${file}": ${(error as Error).message}`);
      }
      const lines = text === "" ? 0 : text.split("\n").length - 1;
      io.err(`Wrote ${lines} line${lines === 1 ? "" : "s"} to ${file}\n`);
    });
}

function addPrune(history: Command, io: CliIO, env: HistoryEnv): void {
  history.command("prune").description(
    "delete sessions (and their backups) started longer ago than an age",
  )
    .requiredOption("--older-than <age>", "an age in days or weeks, e.g. 30d or 4w")
    .option("--project <dir>", "only sessions recorded in this directory")
    .option("--dry-run", "list what would be deleted, delete nothing")
    .action(async (opts) => {
      const ms = parseAge(opts.olderThan);
      if (ms === null) {
        throw new CliError(
          `Invalid age "${opts.olderThan}": use days or weeks, e.g. 30d or 4w`,
          EXIT.usage,
        );
      }
      const cutoff = new Date((env.now?.() ?? new Date()).getTime() - ms);
      const projectPath = opts.project === undefined ? undefined : await projectOf(env, opts);
      const backupsDir = env.backupsDir ?? join(dirname(env.sessionsDir), "backups");
      const old = await findPrunable(env.sessionsDir, backupsDir, cutoff, projectPath);
      if (old.length === 0) return io.out(`No sessions started before ${cutoff.toISOString()}\n`);
      const verb = opts.dryRun ? "Would delete" : "Deleted";
      if (!opts.dryRun) await deletePrunable(old);
      for (const c of old) {
        const backups = c.backupDir ? " and its backups" : "";
        io.out(
          `${verb} ${c.id} (${c.timestamp.slice(0, 10)}, ${c.projectPath})${backups}: ${c.path}\n`,
        );
      }
      const total = old.reduce((n, c) => n + c.bytes, 0);
      const what = `${old.length} session${old.length === 1 ? "" : "s"}, ${kb(total)}`;
      io.out(
        opts.dryRun
          ? `${what} would be deleted; run without --dry-run to delete them\n`
          : `${verb} ${what}\n`,
      );
    });
}

/** The project filter: --all → none, --project → that directory, else the current one. */
async function projectOf(
  env: HistoryEnv,
  opts: { project?: string; all?: true },
): Promise<string | undefined> {
  if (opts.project !== undefined && opts.all) {
    throw new CliError("Use either --project or --all, not both", EXIT.usage);
  }
  if (opts.all) return undefined;
  const dir = resolve(env.cwd, opts.project ?? ".");
  return await Deno.realPath(dir).catch(() => dir);
}

async function sessionById(env: HistoryEnv, id: string): Promise<SessionFile> {
  const found = await findSession(env.sessionsDir, id);
  if (!found.ok) throw new CliError(found.message, EXIT.usage);
  try {
    return await loadSession(found.summary.path);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

function dateOrThrow(text: string): Date {
  const date = parseSince(text);
  if (date === null) {
    throw new CliError(`Invalid date "${text}": use YYYY-MM-DD or ISO 8601`, EXIT.usage);
  }
  return date;
}

function listText(sessions: SessionSummary[], project: string | undefined): string {
  if (sessions.length === 0) {
    return project === undefined
      ? "No sessions\n"
      : `No sessions in "${project}" (add --all to see every project)\n`;
  }
  const headers = [
    "id",
    "started",
    "model",
    "messages",
    ...(project ? [] : ["project"]),
    "first request",
  ];
  const rows = sessions.map((s) => [
    s.id,
    localTime(s.timestamp),
    s.model,
    s.messageCount,
    ...(project ? [] : [s.projectPath]),
    oneLine(s.firstUserMessage, 60),
  ]);
  return textTable(headers, rows);
}

function localTime(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${
    p(d.getMinutes())
  }`;
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function kb(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function warner(io: CliIO): (message: string) => void {
  return (m) => warn(io, m);
}
