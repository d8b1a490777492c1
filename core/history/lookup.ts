/**
 * Finding sessions for the history and undo commands: by id (or a unique
 * prefix of one), the latest of a project, or a project's sessions since a
 * date.
 *
 * @example
 * ```ts
 * const found = await findSession(paths.sessions, "20261122-0814");
 * if (!found.ok) throw new CliError(found.message, EXIT.usage);
 * ```
 * @module
 */
import type { SessionFile } from "../../interfaces/history.ts";
import { listSessions, loadSession, type SessionSummary } from "./store.ts";

/** A session found, or why not. */
export type Lookup = { ok: true; summary: SessionSummary } | { ok: false; message: string };

/** The session whose id is `id`, or the only one whose id starts with it. */
export async function findSession(sessionsDir: string, id: string): Promise<Lookup> {
  const all = await listSessions(sessionsDir);
  const exact = all.find((s) => s.id === id);
  if (exact) return { ok: true, summary: exact };
  const matches = id === "" ? [] : all.filter((s) => s.id.startsWith(id));
  if (matches.length === 1) return { ok: true, summary: matches[0] };
  if (matches.length > 1) {
    const some = matches.slice(0, 3).map((s) => s.id).join(", ");
    return {
      ok: false,
      message: `Session id "${id}" is ambiguous: it starts ${some}; give more of it`,
    };
  }
  return {
    ok: false,
    message: `Unknown session "${id}": run "minoc history list --all" to see the ids`,
  };
}

/** Options of {@link loadSessions}. */
export interface SelectOptions {
  /** Only this project (resolved path); every project when omitted. */
  projectPath?: string;
  /** Only sessions started at or after this time. */
  since?: Date;
}

/** The selected sessions in full, oldest first; files that cannot be read are reported, not thrown. */
export async function loadSessions(
  sessionsDir: string,
  o: SelectOptions,
  warn: (message: string) => void,
): Promise<SessionFile[]> {
  const summaries = await listSessions(
    sessionsDir,
    o.projectPath ? { projectPath: o.projectPath } : {},
  );
  const out: SessionFile[] = [];
  for (const s of summaries.reverse()) {
    if (o.since && Date.parse(s.timestamp) < o.since.getTime()) continue;
    try {
      out.push(await loadSession(s.path));
    } catch (error) {
      warn((error as Error).message);
    }
  }
  return out;
}

/**
 * `YYYY-MM-DD` (local midnight) or any date `Date.parse` reads (ISO 8601);
 * null when it is not a date.
 */
export function parseSince(text: string): Date | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (day) {
    const d = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    return d.getMonth() === Number(day[2]) - 1 ? d : null;
  }
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms);
}
