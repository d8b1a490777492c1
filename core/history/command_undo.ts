/**
 * Makes the file changes of shell commands undoable. A command can change
 * any file without minoc seeing it, so before each `execute_command` the
 * project's files (those `.gitignore` does not exclude) are looked at and a
 * copy of each new or changed one is kept in the session's backup folder;
 * after it, every file and folder the command created, changed or removed is
 * recorded in the call's change group. `/undo` and `minoc undo` then put the
 * project back as it was before the command.
 *
 * Only files whose size, modification time or inode changed since the last
 * look are copied again. After the first look, a watcher on the project
 * (`tree_watch.ts`, Linux) says which folders changed, and only those are
 * listed again (`tree_patch.ts`); without it, or when it cannot vouch for
 * what it saw, each look is a walk of the project. Files over {@link CommandUndoLimits.maxFileBytes}, and files
 * past the total, are not kept: when a command changes one of them, the
 * result says that it cannot be undone.
 *
 * @example
 * ```ts
 * const watch = new CommandUndo({ root: cwd, store: backups, exclude: [minocHome] });
 * const before = await watch.before(signal);
 * const result = await runTool(executeCommand, args, ctx);
 * const { lost } = await watch.after(before); // recorded in the open change group
 * ```
 * @module
 */
import { COMMAND_UNDO_LIMITS, type CommandUndoLimits, undoNote } from "./command_undo_report.ts";
import { join, relative } from "node:path";
import { realFs } from "../tools/fs_port.ts";
import { isInside } from "../tools/paths.ts";
import { walkTree } from "../tools/walk.ts";
import { type BackupStore, DIR_STATE, type PriorState, sameBytes, sha256 } from "./backups.ts";
import { CopyPack, type PackedCopy } from "./copy_pack.ts";
import { patchLook } from "./tree_patch.ts";
import { TreeWatch } from "./tree_watch.ts";

/** One path as last seen. */
interface Seen {
  dir: boolean;
  size: number;
  mtime: number;
  ino: number | null;
  /** Where the kept copy is (files only; absent: not kept). */
  copy?: PackedCopy;
}

/** The project's state before a command. */
export interface Before {
  paths: ReadonlyMap<string, Seen>;
  /** True when the walk stopped at `maxEntries`. */
  truncated: boolean;
}

/** What {@link CommandUndo.after} recorded. */
export interface AfterReport {
  /** Changes recorded for undo. */
  recorded: number;
  /** Project-relative paths the command changed that cannot be put back. */
  lost: string[];
}

/** Keeps the project's files so that a command's changes can be undone. */
export class CommandUndo {
  readonly #root: string;
  readonly #store: BackupStore;
  readonly #exclude: readonly string[];
  readonly #limits: CommandUndoLimits;
  readonly #mirror: string;
  #seen = new Map<string, Seen>();
  #pack: CopyPack | null = null;
  /** The watcher (null: none possible; undefined: not started yet) and the folders it watches. */
  #watch: TreeWatch | null | undefined = undefined;
  #watched = new Set<string>();
  /** Whether `#seen` is a complete look to patch. */
  #based = false;
  #truncated = false;

  constructor(
    o: {
      root: string;
      store: BackupStore;
      exclude?: readonly string[];
      limits?: Partial<CommandUndoLimits>;
    },
  ) {
    this.#root = o.root;
    this.#store = o.store;
    this.#exclude = o.exclude ?? [];
    this.#limits = { ...COMMAND_UNDO_LIMITS, ...o.limits };
    this.#mirror = join(o.store.dir, "mirror");
  }

  /** Looks at the project and keeps a copy of every file new or changed since the last look. */
  async before(signal?: AbortSignal): Promise<Before> {
    if (this.#pack === null) {
      await Deno.mkdir(this.#mirror, { recursive: true });
      this.#pack = new CopyPack(join(this.#mirror, "pack"), this.#limits.maxTotalBytes);
    }
    const pack = this.#pack;
    const { paths, truncated } = await this.#look(true, signal);
    await this.#rewatch(paths); // before the copies are taken, so later changes are seen
    for (const [path, old] of this.#seen) {
      const now = paths.get(path);
      if (!old.copy) continue;
      if (now && !now.dir && same(old, now)) now.copy = old.copy;
      else pack.release(old.copy);
    }
    for (const [path, now] of paths) {
      if (now.dir || now.copy || now.size > this.#limits.maxFileBytes) continue;
      now.copy = pack.add(path, now.size) ?? undefined; // null: unreadable or past the total
    }
    if (pack.wasteful()) {
      const kept = [...paths.values()].filter((s) => s.copy !== undefined);
      const moved = pack.compact(kept.map((s) => s.copy as PackedCopy));
      kept.forEach((s, i) => s.copy = moved[i]);
    }
    this.#seen = paths;
    this.#based = true;
    return { paths: new Map(paths), truncated };
  }

  /**
   * Looks again and records every change since `before` in the store's open
   * change group: folders created (parents first), files created, changed or
   * removed, then folders removed (deepest first), so that undo, which goes
   * newest first, can put each back.
   */
  async after(before: Before): Promise<AfterReport> {
    const { paths: now } = await this.#look(false);
    const report: AfterReport = { recorded: 0, lost: [] };
    const record = async (path: string, prior: PriorState, after: string | null) => {
      await this.#store.recordChange(path, prior, after);
      report.recorded++;
    };
    for (const [path, n] of now) {
      if (n.dir && !before.paths.has(path)) await record(path, { kind: "absent" }, DIR_STATE);
    }
    for (const [path, n] of now) {
      if (n.dir) continue;
      const b = before.paths.get(path);
      if (b?.dir || (b && same(b, n))) continue; // a folder became a file: counted below
      const content = await Deno.readFile(path).catch(() => null);
      if (content === null) continue;
      const prior = b ? this.#prior(b) : { kind: "absent" as const };
      if (prior === null) {
        report.lost.push(this.#rel(path));
        continue;
      }
      if (prior.kind === "file" && sameBytes(prior.content, content)) continue;
      await record(path, prior, await sha256(content));
    }
    const removedDirs: string[] = [];
    for (const [path, b] of before.paths) {
      const n = now.get(path);
      if (n !== undefined && n.dir === b.dir) continue;
      if (n !== undefined) {
        report.lost.push(this.#rel(path)); // a file became a folder or the other way round
        continue;
      }
      if (b.dir) {
        removedDirs.push(path);
        continue;
      }
      const prior = this.#prior(b);
      if (prior === null) report.lost.push(this.#rel(path));
      else await record(path, prior, null);
    }
    removedDirs.sort((a, b) => b.length - a.length);
    for (const path of removedDirs) await record(path, { kind: "dir" }, null);
    return report;
  }

  /** Removes the kept copies (at the end of the session). */
  async dispose(): Promise<void> {
    this.#seen.clear();
    this.#based = false;
    this.#watch?.close();
    this.#watch = undefined;
    this.#watched.clear();
    if (this.#pack === null) return;
    this.#pack.close();
    this.#pack = null;
    await Deno.remove(this.#mirror, { recursive: true }).catch(() => {});
  }

  /**
   * Every folder and file of the project that is not ignored, with its state:
   * the last look patched with the folders the watcher saw change, or a walk.
   * `reset` starts the watcher's next collection (a command's "before").
   */
  async #look(
    reset: boolean,
    signal?: AbortSignal,
  ): Promise<{ paths: Map<string, Seen>; truncated: boolean }> {
    if (this.#watch) {
      await this.#watch.settle();
      const changes = this.#watch.take(reset);
      if (this.#based && !changes.full) {
        const skip = (abs: string) => this.#exclude.some((x) => isInside(x, abs));
        const list = (dir: string, recursive: boolean) => this.#walk(dir, recursive);
        const paths = await patchLook(this.#seen, changes.dirs, { root: this.#root, skip, list });
        return { paths, truncated: this.#truncated };
      }
    }
    const paths = await this.#walk(this.#root, true, signal);
    return { paths, truncated: this.#truncated };
  }

  /**
   * Watches the folders of `paths` when they are not the ones watched: the
   * new watcher starts first and takes over what the old one still collected.
   */
  async #rewatch(paths: ReadonlyMap<string, Seen>): Promise<void> {
    if (this.#watch === null) return;
    const dirs = [this.#root];
    for (const [path, s] of paths) if (s.dir) dirs.push(path);
    if (
      this.#watch && dirs.length === this.#watched.size && dirs.every((d) => this.#watched.has(d))
    ) {
      return;
    }
    const next = await TreeWatch.start(dirs, join(this.#mirror, "watch"));
    const old = this.#watch;
    if (old) {
      await old.settle();
      next?.absorb(old.take(true));
      old.close();
    }
    this.#watch = next;
    this.#watched = new Set(next ? dirs : []);
  }

  /** The entries of `dir` (or its whole subtree) that are not ignored, with their state. */
  async #walk(dir: string, recursive: boolean, signal?: AbortSignal): Promise<Map<string, Seen>> {
    const paths = new Map<string, Seen>();
    const summary = await walkTree(
      {
        fs: realFs,
        root: dir,
        cwd: this.#root,
        recursive,
        signal,
        maxEntries: this.#limits.maxEntries,
        skip: (abs) => this.#exclude.some((x) => isInside(x, abs)),
      },
      (e) => {
        if (e.isSymlink) return;
        if (e.isDirectory) {
          paths.set(e.abs, { dir: true, size: 0, mtime: 0, ino: null });
          return;
        }
        if (!e.isFile) return;
        try {
          const info = Deno.lstatSync(e.abs);
          paths.set(e.abs, {
            dir: false,
            size: info.size,
            mtime: info.mtime?.getTime() ?? 0,
            ino: info.ino,
          });
        } catch {
          // gone while walking
        }
      },
    );
    if (dir === this.#root && recursive) this.#truncated = summary.truncated;
    return paths;
  }

  /** What a file held before: its kept copy, or null when it was not kept. */
  #prior(b: Seen): PriorState | null {
    if (b.copy === undefined || this.#pack === null) return null;
    try {
      return { kind: "file", content: this.#pack.read(b.copy) };
    } catch {
      return null;
    }
  }

  #rel(path: string): string {
    return relative(this.#root, path).replaceAll("\\", "/");
  }
}

function same(a: Seen, b: Seen): boolean {
  return a.size === b.size && a.mtime === b.mtime && a.ino === b.ino;
}

export { COMMAND_UNDO_LIMITS, type CommandUndoLimits, undoNote };
