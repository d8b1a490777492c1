/**
 * Builds a history report's data: selects sessions (since, project, model),
 * streams each one message at a time, and keeps aggregates, one row per
 * session and a bounded number of transcripts. The newest sessions'
 * transcripts are embedded; the next ones are handed to `writeTranscript`
 * (separate pages beside the report); older ones are only summarised.
 *
 * @example
 * ```ts
 * const data = await buildReport({ sessionsDir, backupsDir, redactPaths: true });
 * await Deno.writeTextFile("report.html", renderReport(data));
 * ```
 * @module
 */
import { join, resolve } from "node:path";
import type { SessionMetadata } from "../../../interfaces/history.ts";
import { parseManifest } from "../backups.ts";
import type { SessionHeader } from "../format.ts";
import { ReportAggregate } from "./aggregate.ts";
import type { ReportData, SessionRow, Transcript, TranscriptPlace } from "./data.ts";
import { knownHomes, scrubber } from "./privacy.ts";
import { SessionScan } from "./scan.ts";
import { sessionFilesNewestFirst, streamSession } from "./read.ts";

/** What to put in a report. */
export interface ReportOptions {
  sessionsDir: string;
  /** `<home>/history/backups`, to tell which calls were undone. */
  backupsDir: string;
  since?: Date;
  /** Only sessions recorded in this directory (resolved path). */
  projectPath?: string;
  /** Only sessions of this model (exact name). */
  model?: string;
  redactPaths: boolean;
  /** Home directories to replace (default: the current user's). */
  homes?: string[];
  /** Transcripts embedded in the page (newest sessions first). Default 50. */
  inlineTranscripts?: number;
  /** Transcripts after those written by `writeTranscript`. Default 500. */
  fileTranscripts?: number;
  /** Rows of the sessions table. Default 20,000. */
  maxRows?: number;
  /** Writes one transcript page; returns its address relative to the report. */
  writeTranscript?(t: Transcript): Promise<string>;
  warn?(message: string): void;
  now?: Date;
}

/** Reads the selected history and returns what the report shows. */
export async function buildReport(o: ReportOptions): Promise<ReportData> {
  const scrub = scrubber({ redactPaths: o.redactPaths, homes: o.homes ?? knownHomes() });
  const agg = new ReportAggregate(o.maxRows ?? 20_000);
  const transcripts: Record<string, Transcript> = {};
  const inline = o.inlineTranscripts ?? 50;
  const files = o.writeTranscript ? (o.fileTranscripts ?? 500) : 0;
  let index = 0;
  const place = (): TranscriptPlace => {
    const i = index++;
    return i < inline ? "inline" : i < inline + files ? "file" : "none";
  };
  const wanted = selector(o);
  for (const path of await sessionFilesNewestFirst(o.sessionsDir)) {
    const read = await readOne(path, wanted, place, scrub, o);
    if (read === "skipped") continue;
    if (read === null) {
      agg.unreadable();
      continue;
    }
    const { scan, metadata, where } = read;
    const row = rowOf(scan, metadata, where);
    if (where !== "none") {
      const t: Transcript = {
        id: row.id,
        model: row.model,
        project: row.project,
        timestamp: row.timestamp,
        items: scan.transcript(),
      };
      if (where === "inline") transcripts[row.id] = t;
      else row.href = await o.writeTranscript!(t);
    }
    agg.add(scan, metadata, row);
  }
  return {
    generatedAt: (o.now ?? new Date()).toISOString(),
    filters: {
      ...(o.since ? { since: o.since.toISOString() } : {}),
      ...(o.projectPath ? { project: scrub(o.projectPath) } : {}),
      ...(o.model ? { model: o.model } : {}),
      redactPaths: o.redactPaths,
    },
    ...agg.finish(),
    transcripts,
  };
}

/** Whether a session's header passes the filters. */
function selector(o: ReportOptions): (h: SessionHeader) => boolean {
  const project = o.projectPath === undefined ? undefined : resolve(o.projectPath);
  const since = o.since?.getTime();
  return (h) =>
    (project === undefined || resolve(h.projectPath) === project) &&
    (o.model === undefined || h.model === o.model) &&
    (since === undefined || Date.parse(h.timestamp) >= since);
}

interface Read {
  scan: SessionScan;
  metadata: Partial<SessionMetadata>;
  where: TranscriptPlace;
}

/** One session streamed; "skipped" when filtered out, null when unreadable. */
async function readOne(
  path: string,
  wanted: (h: SessionHeader) => boolean,
  place: () => TranscriptPlace,
  scrub: (s: string) => string,
  o: ReportOptions,
): Promise<Read | "skipped" | null> {
  let scan: SessionScan | undefined;
  let where: TranscriptPlace = "none";
  let metadata: Partial<SessionMetadata> = {};
  try {
    await streamSession(path, {
      header: (h) => {
        if (!wanted(h)) return false;
        where = place();
        scan = new SessionScan(h, scrub, where !== "none");
      },
      message: (m) => scan!.add(m),
      metadata: (m) => (metadata = m),
    });
  } catch (error) {
    o.warn?.((error as Error).message);
    return null;
  }
  if (!scan) return "skipped";
  await markUndone(scan, o.backupsDir);
  return { scan, metadata, where };
}

/** Calls whose backups were all undone become `undone`. */
async function markUndone(scan: SessionScan, backupsDir: string): Promise<void> {
  const withBackups = scan.calls.filter((c) => c.backupIds?.length);
  if (withBackups.length === 0) return;
  let text: string;
  try {
    text = await Deno.readTextFile(join(backupsDir, scan.header.sessionId, "manifest.jsonl"));
  } catch {
    return;
  }
  const undone = new Set(parseManifest(text).filter((e) => e.undone).map((e) => e.id));
  for (const c of withBackups) {
    if (c.outcome !== "ok" || !c.backupIds!.every((id) => undone.has(id))) continue;
    c.outcome = "undone";
    if (c.item) c.item.outcome = "undone";
  }
}

function rowOf(
  scan: SessionScan,
  metadata: Partial<SessionMetadata>,
  place: TranscriptPlace,
): SessionRow {
  const h = scan.header;
  const failed = scan.calls.filter((c) => c.outcome !== "ok" && c.outcome !== "simulated").length;
  const parseErrors = Object.values(scan.parseErrors).reduce((a, b) => a + b, 0);
  const end = Date.parse(scan.lastTime) - Date.parse(h.timestamp);
  return {
    id: h.sessionId,
    timestamp: h.timestamp,
    project: scan.scrub(h.projectPath),
    model: h.model,
    mode: h.mode,
    tasks: scan.taskTurns.length,
    turns: scan.taskTurns.reduce((a, b) => a + b, 0),
    outcome: scan.outcome,
    tokensIn: scan.tokensIn,
    tokensOut: scan.tokensOut,
    calls: scan.calls.length,
    failedCalls: failed,
    parseErrors,
    durationMs: typeof metadata.duration === "number"
      ? metadata.duration
      : Number.isFinite(end)
      ? Math.max(0, end)
      : 0,
    request: scan.request,
    transcript: place,
  };
}
