/**
 * Tells {@link ./command_undo.ts} which folders of the project changed since
 * it last looked, so that it lists only those instead of walking the whole
 * tree around every command (~470 ms in a 20,000-file project).
 *
 * One `Deno.watchFs` on the project's folders (each folder the last look
 * found, not recursive: ignored trees such as `node_modules` or `.git` cost
 * no inotify watch) collects the folders of every changed path; a folder
 * created later is walked in full by the next look, and the watch is then
 * renewed with it (`tree_patch.ts`, `command_undo.ts`). To know that the events of a finished command have all
 * arrived, {@link TreeWatch.settle} writes a marker file in a watched folder
 * and waits for its event: one inotify queue delivers events in order, so
 * every earlier change has been seen by then. Anything uncertain — the marker
 * not seen in time, a queue overflow ("rescan"), a changed `.gitignore`, the
 * watcher failing — makes the next look a full walk, so undo stays complete.
 *
 * Linux only (inotify's ordering is what makes the marker sound); elsewhere
 * {@link TreeWatch.start} returns null and every look is a full walk.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/** What changed since the last {@link TreeWatch.take}. */
export interface TreeChanges {
  /** Folders whose entries (or an entry's content) changed. */
  dirs: Set<string>;
  /** True when the changes are not known: walk everything. */
  full: boolean;
}

/** How long {@link TreeWatch.settle} waits for its marker before giving up. */
const SETTLE_MS = 2_000;

/** A recursive watch of a project tree that collects changed folders. */
export class TreeWatch {
  readonly #fs: Deno.FsWatcher;
  readonly #marker: string;
  #dirs = new Set<string>();
  #full = false;
  #stamp = 0;
  #waiting: { stamp: string; done: () => void } | null = null;
  #closed = false;

  private constructor(fs: Deno.FsWatcher, marker: string) {
    this.#fs = fs;
    this.#marker = marker;
    this.#pump();
  }

  /**
   * Watches the folders `dirs` (not their subfolders) and `markerDir`, where
   * the marker file goes. Null where watching is not sound or not possible.
   */
  static async start(dirs: readonly string[], markerDir: string): Promise<TreeWatch | null> {
    if (Deno.build.os !== "linux") return null;
    try {
      await Deno.mkdir(markerDir, { recursive: true });
      const marker = join(markerDir, ".watch-marker");
      await Deno.writeTextFile(marker, "0");
      return new TreeWatch(Deno.watchFs([markerDir, ...dirs], { recursive: false }), marker);
    } catch {
      return null; // e.g. the inotify watch limit, or a folder removed meanwhile
    }
  }

  /** Adds changes another watcher collected (when this one replaces it). */
  absorb(changes: TreeChanges): void {
    for (const d of changes.dirs) this.#dirs.add(d);
    if (changes.full) this.#full = true;
  }

  async #pump(): Promise<void> {
    try {
      for await (const e of this.#fs) this.#take(e);
    } catch {
      // the watcher failed: nothing more can be known
    }
    this.#full = true;
    this.#closed = true;
    this.#waiting?.done();
  }

  #take(e: Deno.FsEvent): void {
    if (e.kind === "access") return;
    if (e.kind === "other" || (e.flag ?? null) !== null) this.#full = true;
    for (const p of e.paths) {
      if (p === this.#marker) {
        if (this.#waiting) this.#checkMarker();
        continue;
      }
      if (basename(p) === ".gitignore") this.#full = true;
      this.#dirs.add(dirname(p));
      if (e.kind !== "modify") this.#dirs.add(p); // a folder created, moved or removed
    }
  }

  #checkMarker(): void {
    try {
      if (Deno.readTextFileSync(this.#marker) === this.#waiting?.stamp) this.#waiting.done();
    } catch {
      // not written yet
    }
  }

  /**
   * Waits until every change made before this call has been collected. On
   * timeout or a failed watcher the changes become unknown (`full`).
   */
  async settle(): Promise<void> {
    if (this.#closed) {
      this.#full = true;
      return;
    }
    const stamp = String(++this.#stamp);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const seen = new Promise<boolean>((resolve) => {
      this.#waiting = { stamp, done: () => resolve(true) };
      timer = setTimeout(() => resolve(false), SETTLE_MS);
    });
    try {
      await Deno.writeTextFile(this.#marker, stamp);
      if (!await seen) this.#full = true;
    } catch {
      this.#full = true;
    } finally {
      clearTimeout(timer);
      this.#waiting = null;
    }
  }

  /** The changes collected so far; with `reset`, starts collecting afresh. */
  take(reset: boolean): TreeChanges {
    const out = { dirs: new Set(this.#dirs), full: this.#full };
    if (reset) {
      this.#dirs.clear();
      this.#full = this.#closed;
    }
    return out;
  }

  /** Stops watching. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#fs.close();
    } catch {
      // already closed
    }
  }
}
