/**
 * How far the crash check of a project's sessions (`repairCutSessions()` in
 * store.ts) has already looked, so that a start does not look at every
 * recorded session again: with a long history that was ~0.2 ms a file, a
 * thousand files ~200 ms of the first turns (issue 24).
 *
 * A check that starts at `now` examines every file last written before
 * `now - CUT_AGE_MS`; it records that time for its project in
 * `repair-checked.json` beside the sessions folder (in `history/`, where
 * nothing reads the sessions folder's entries as days). A file is cut only by a write, after
 * which nothing writes it again, and a write changes its modification time,
 * so a later check need only look at files written after that time. (A file
 * copied in with an older modification time is not looked at; loading or
 * resuming it still reads past a cut end.) A missing or damaged record means a
 * full check; two processes racing on the record at worst lose one entry,
 * which again means a full check.
 *
 * @example
 * ```ts
 * const since = checkedUpTo(sessionsDir, "/work/app"); // -Infinity the first time
 * markChecked(sessionsDir, "/work/app", Date.now() - CUT_AGE_MS);
 * ```
 * @module
 */
import { join } from "node:path";

/** The record's name, in the folder that holds the sessions folder. */
export const MARKS_FILE = "repair-checked.json";

/** Where the record of `sessionsDir` is kept. */
export function marksFile(sessionsDir: string): string {
  return join(sessionsDir, "..", MARKS_FILE);
}

function read(sessionsDir: string): Record<string, unknown> {
  try {
    const marks = JSON.parse(Deno.readTextFileSync(marksFile(sessionsDir)));
    return marks !== null && typeof marks === "object" && !Array.isArray(marks) ? marks : {};
  } catch {
    return {};
  }
}

/** The time (ms) up to which `project`'s sessions were checked; -Infinity when never. */
export function checkedUpTo(sessionsDir: string, project: string): number {
  const at = read(sessionsDir)[project];
  return typeof at === "number" && Number.isFinite(at) ? at : -Infinity;
}

/** Records that `project`'s sessions written up to `upTo` (ms) were checked; never throws. */
export function markChecked(sessionsDir: string, project: string, upTo: number): void {
  const file = marksFile(sessionsDir);
  const tmp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    const marks = { ...read(sessionsDir), [project]: upTo };
    Deno.writeTextFileSync(tmp, JSON.stringify(marks) + "\n");
    Deno.renameSync(tmp, file);
  } catch {
    try {
      Deno.removeSync(tmp);
    } catch {
      // nothing was written
    }
  }
}
