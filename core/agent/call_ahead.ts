/**
 * Work a call will need, started while the rest of the reply streams: a call
 * that may change files (a write, an edit, a command) records its first change
 * in the session's backup store, whose folder and manifest are made as soon as
 * such a call shows in the stream. Made at the change itself, they cost the
 * session's first changing turn ~1.5–2 ms (issue 24). A session whose model
 * never starts such a call writes no backup folder, as before.
 *
 * @example
 * ```ts
 * const ahead = callAhead(tools, backups);
 * // on each `call_progress` event of a reply:
 * ahead("write_to_file notes.md");
 * ```
 * @module
 */
import type { AnyTool } from "../../interfaces/tool.ts";
import type { BackupStore } from "../history/backups.ts";

/** Returns what to call with each live call summary (`<tool> <detail>`); prepares at most once. */
export function callAhead(
  tools: readonly AnyTool[],
  backups: Pick<BackupStore, "prepare"> | null,
): (summary: string) => void {
  let done = backups === null;
  return (summary) => {
    if (done) return;
    const name = summary.split(" ", 1)[0];
    const kind = tools.find((t) => t.name === name)?.kind;
    if (kind !== "write" && kind !== "exec") return;
    done = true;
    void backups?.prepare();
  };
}
