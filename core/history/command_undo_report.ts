/**
 * The bounds of the undo watch around shell commands, and what the user is
 * told when a command's changes cannot all be undone.
 *
 * @module
 */

/** How much of the project is kept. */
export interface CommandUndoLimits {
  /** Larger files are not kept. */
  maxFileBytes: number;
  /** The most all kept copies may take. */
  maxTotalBytes: number;
  /** The most files and folders looked at. */
  maxEntries: number;
}

/** The defaults: files up to 8 MB, 256 MB in all, 100,000 entries. */
export const COMMAND_UNDO_LIMITS: CommandUndoLimits = {
  maxFileBytes: 8 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxEntries: 100_000,
};

/**
 * What the user should know about undoing a command: nothing when every
 * change was kept; else which changes cannot be undone, and why.
 */
export function undoNote(
  before: { truncated: boolean } | null,
  after: { recorded?: number; lost: readonly string[] } | null,
): string {
  if (before === null || after === null) return "this command's changes cannot be undone";
  const notes: string[] = [];
  if (after.lost.length > 0) {
    const shown = after.lost.slice(0, 5).join(", ");
    const more = after.lost.length > 5 ? ` and ${after.lost.length - 5} more` : "";
    notes.push(`cannot be undone (too large to keep, or replaced by a folder): ${shown}${more}`);
  }
  if (before.truncated) {
    notes.push(
      "the project has too many files to watch them all; changes past them cannot be undone",
    );
  }
  return notes.join("\n");
}
