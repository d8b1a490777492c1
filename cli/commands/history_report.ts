/**
 * `minoc history report`: one self-contained HTML file with charts of the
 * tool-call history (every project unless `--project`), a sessions table and
 * transcripts. The newest sessions' transcripts are embedded; the next ones
 * are written as pages in `<report>.sessions/` beside the report; older
 * ones are summarised.
 *
 * Options: `--since 30d|4w|DATE`, `--project DIR`, `--model NAME`,
 * `-o FILE` (default `minoc-report.html`), `--redact-paths`, `--open`,
 * `--transcripts N` (pages beside the report, default 500).
 *
 * Exit codes: 0 on success, 1 when the file cannot be written, 2 for bad
 * options.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { basename, dirname, join, resolve } from "node:path";
import { parseSince } from "../../core/history/lookup.ts";
import { parseAge } from "../../core/history/prune.ts";
import { CliError, type CliIO, EXIT, warn } from "../io.ts";
import type { HistoryEnv } from "./history_env.ts";

/** Options of the `report` sub-command, as commander gives them. */
interface ReportFlags {
  since?: string;
  project?: string;
  model?: string;
  output: string;
  open?: true;
  redactPaths?: true;
  transcripts: string;
}

/** Adds `report` to the `history` command. */
export function addReport(history: Command, io: CliIO, env: HistoryEnv): void {
  history.command("report").description(
    "write an HTML report with charts of the tool-call history (every project by default)",
  )
    .option("--since <when>", "sessions started in the last 30d / 4w, or on or after a date")
    .option("--project <dir>", "only sessions recorded in this directory")
    .option("--model <name>", "only sessions of this model")
    .option("-o, --output <file>", "the HTML file to write", "minoc-report.html")
    .option("--redact-paths", "replace home directories with ~")
    .option("--transcripts <n>", "transcript pages written beside the report", "500")
    .option("--open", "open the report in the default browser")
    .action(async (opts: ReportFlags) => await report(io, env, opts));
}

async function report(io: CliIO, env: HistoryEnv, opts: ReportFlags): Promise<void> {
  const since = opts.since === undefined ? undefined : sinceOf(opts.since, env);
  const pages = Number(opts.transcripts);
  if (!Number.isInteger(pages) || pages < 0) {
    throw new CliError(
      `Invalid --transcripts "${opts.transcripts}": expected a whole number, 0 or more`,
      EXIT.usage,
    );
  }
  const projectPath = opts.project === undefined ? undefined : await realDir(env, opts.project);
  const file = resolve(env.cwd, opts.output);
  const folder = file.replace(/\.html?$/i, "") + ".sessions";
  await checkFolder(dirname(file));
  const [{ buildReport }, { renderReport, renderTranscriptPage }] = await Promise.all([
    import("../../core/history/report/build.ts"),
    import("../../core/history/report/html.ts"),
  ]);
  let made = false;
  const data = await buildReport({
    sessionsDir: env.sessionsDir,
    backupsDir: env.backupsDir ?? join(dirname(env.sessionsDir), "backups"),
    since,
    projectPath,
    model: opts.model,
    redactPaths: opts.redactPaths === true,
    fileTranscripts: pages,
    writeTranscript: async (t) => {
      if (!made) await writeOrThrow(folder, null);
      made = true;
      const name = `${t.id.replace(/[^\w.-]/g, "_")}.html`;
      await writeOrThrow(join(folder, name), renderTranscriptPage(t, basename(file)));
      return `${encodeURIComponent(basename(folder))}/${encodeURIComponent(name)}`;
    },
    warn: (m) => warn(io, m),
    now: env.now?.(),
  });
  await writeOrThrow(file, renderReport(data));
  const n = data.totals.sessions;
  io.err(`Wrote a report of ${n} session${n === 1 ? "" : "s"} to ${file}\n`);
  if (n === 0) io.err("No sessions matched: the report is empty\n");
  if (opts.open) await openFile(file, io);
}

function sinceOf(text: string, env: HistoryEnv): Date {
  const age = parseAge(text);
  if (age !== null) return new Date((env.now?.() ?? new Date()).getTime() - age);
  const date = parseSince(text);
  if (date === null) {
    throw new CliError(
      `Invalid --since "${text}": use an age such as 30d or 4w, or a date (YYYY-MM-DD or ISO 8601)`,
      EXIT.usage,
    );
  }
  return date;
}

async function realDir(env: HistoryEnv, dir: string): Promise<string> {
  const path = resolve(env.cwd, dir);
  return await Deno.realPath(path).catch(() => path);
}

/** Fails early (before reading the history) when the report's folder is missing. */
async function checkFolder(dir: string): Promise<void> {
  const info = await Deno.stat(dir).catch(() => null);
  if (!info?.isDirectory) {
    throw new CliError(`Cannot write the report: the folder "${dir}" does not exist`);
  }
}

/** Writes `text` to `path` (or makes the folder `path` when `text` is null). */
async function writeOrThrow(path: string, text: string | null): Promise<void> {
  try {
    if (text === null) await Deno.mkdir(path, { recursive: true });
    else await Deno.writeTextFile(path, text);
  } catch (error) {
    throw new CliError(`Cannot write "${path}": ${(error as Error).message}`);
  }
}

/** Opens `file` with the system's opener; a failure is a warning, not an error. */
async function openFile(file: string, io: CliIO): Promise<void> {
  const [cmd, ...args] = Deno.build.os === "windows"
    ? ["cmd", "/c", "start", "", file]
    : Deno.build.os === "darwin"
    ? ["open", file]
    : ["xdg-open", file];
  try {
    const child = new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "null" })
      .spawn();
    const status = await child.status;
    if (!status.success) io.err(`warning: "${cmd}" could not open the report: open ${file}\n`);
  } catch {
    io.err(`warning: no "${cmd}" to open the report with: open ${file} in a browser\n`);
  }
}
