/**
 * What the `history` command and its sub-commands work on: where the
 * sessions and backups are, the default project, and the clock.
 *
 * @module
 */

/** Where the history lives and where the command runs. */
export interface HistoryEnv {
  /** `<home>/history/sessions`. */
  sessionsDir: string;
  /** The current directory: the default project. */
  cwd: string;
  /** `<home>/history/backups`; by default beside `sessionsDir`. */
  backupsDir?: string;
  /** The clock for `prune` (tests inject one). */
  now?: () => Date;
}
