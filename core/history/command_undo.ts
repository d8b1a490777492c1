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
import { isInside } from "../tools/paths.ts";
import { type BackupStore, DIR_STATE, type PriorState, sameBytes, sha256 } from "./backups.ts";
import { CopyPack, type PackedCopy } from "./copy_pack.ts";
import { diffLooks, same, type Seen, walkLook } from "./tree_look.ts";
import { applyPatch, patchLook } from "./tree_patch.ts";
import { TreeWatch } from "./tree_watch.ts";

/** A look at the project (see `CommandUndo.#look`): a walk's paths, or the changes since the last. */
interface Look {
  walked: Map<string, Seen> | null;
  changes: Map<string, Seen | null> | null;
  truncated: boolean;
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
  /** What {@link before} returned last (the state `#seen` holds). */
  #last: Before | null = null;
  /** Files of `#seen` that could be kept but have no copy (unreadable, or past the total). */
  #uncopied = new Set<string>();
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
    const look = await this.#look(true, signal);
    // Nothing changed since the last look: the same state, the same copies.
    if (look.changes?.size === 0 && this.#last !== null) return this.#last;
    try {
      return await this.#keep(look, this.#pack);
    } catch (e) {
      this.#based = false; // the watcher's news is spent: the next look walks
      throw e;
    }
  }

  /** Makes `look` the state kept: copies of new and changed files, the watch on its folders. */
  async #keep(look: Look, pack: CopyPack): Promise<Before> {
    const changes = look.changes;
    const paths = look.walked ?? this.#seen;
    // After a patch, only the changed paths need a look (the others keep their entry and copy).
    const old = changes === null ? this.#seen : new Map<string, Seen>();
    if (changes !== null) {
      for (const k of changes.keys()) {
        const was = paths.get(k);
        if (was) old.set(k, was);
      }
      applyPatch(paths, changes);
    }
    await this.#rewatch(paths, changes); // before the copies are taken, so later changes are seen
    for (const [path, was] of old) {
      const now = paths.get(path);
      if (!was.copy || was === now) continue;
      if (now && !now.dir && same(was, now)) now.copy = was.copy;
      else pack.release(was.copy);
    }
    const uncopied = this.#uncopied;
    if (changes === null) uncopied.clear();
    for (const path of changes === null ? paths.keys() : [...changes.keys(), ...uncopied]) {
      const now = paths.get(path);
      uncopied.delete(path);
      if (!now || now.dir || now.copy || now.size > this.#limits.maxFileBytes) continue;
      now.copy = pack.add(path, now.size) ?? undefined; // null: unreadable or past the total
      if (!now.copy) uncopied.add(path);
    }
    if (pack.wasteful()) {
      const kept = [...paths.values()].filter((s) => s.copy !== undefined);
      const moved = pack.compact(kept.map((s) => s.copy as PackedCopy));
      kept.forEach((s, i) => s.copy = moved[i]);
    }
    this.#seen = paths;
    this.#based = true;
    this.#last = { paths, truncated: look.truncated };
    return this.#last;
  }

  /**
   * Looks again and records every change since `before` (what the last
   * {@link before} returned) in the store's open change group: folders
   * created (parents first), files created, changed or removed, then folders
   * removed (deepest first), so that undo, which goes newest first, can put
   * each back.
   */
  async after(before: Before): Promise<AfterReport> {
    if (before !== this.#last) {
      throw new Error("CommandUndo.after() takes what the last before() gave");
    }
    const { walked, changes } = await this.#look(false);
    const report: AfterReport = { recorded: 0, lost: [] };
    if (changes?.size === 0) return report; // the watcher saw no change since `before`
    // After a patch of `before`'s look, only the paths it changed can differ.
    const now = (path: string) =>
      walked
        ? walked.get(path)
        : changes!.has(path)
        ? changes!.get(path) ?? undefined
        : before.paths.get(path);
    const record = async (path: string, prior: PriorState, after: string | null) => {
      await this.#store.recordChange(path, prior, after);
      report.recorded++;
    };
    const keys = walked ? before.paths.keys() : changes!.keys();
    const diff = diffLooks(before.paths, now, () => walked?.keys() ?? changes!.keys(), keys);
    for (const path of diff.made) await record(path, { kind: "absent" }, DIR_STATE);
    for (const { path, was } of diff.files) {
      const content = await Deno.readFile(path).catch(() => null);
      if (content === null) continue;
      const prior = was ? this.#prior(was) : { kind: "absent" as const };
      if (prior === null) report.lost.push(this.#rel(path));
      else if (prior.kind !== "file" || !sameBytes(prior.content, content)) {
        await record(path, prior, await sha256(content));
      }
    }
    for (const { path, was, swapped } of diff.gone) {
      const prior = swapped ? null : this.#prior(was); // a file became a folder or the other way
      if (prior === null) report.lost.push(this.#rel(path));
      else await record(path, prior, null);
    }
    for (const path of diff.goneDirs) await record(path, { kind: "dir" }, null);
    return report;
  }

  /** Removes the kept copies (at the end of the session). */
  async dispose(): Promise<void> {
    this.#seen = new Map();
    this.#based = false;
    this.#last = null;
    this.#uncopied.clear();
    this.#watch?.close();
    this.#watch = undefined;
    this.#watched.clear();
    if (this.#pack === null) return;
    this.#pack.close();
    this.#pack = null;
    await Deno.remove(this.#mirror, { recursive: true }).catch(() => {});
  }

  /**
   * What changed since the watcher's collection began (`reset` starts the
   * next one: a command's "before"): the last look's paths set anew or
   * removed (none: nothing changed), from the folders the watcher saw change;
   * or, without a watcher that can vouch for what it saw, a walk.
   */
  async #look(reset: boolean, signal?: AbortSignal): Promise<Look> {
    if (this.#watch) {
      await this.#watch.settle();
      const news = this.#watch.take(reset);
      if (this.#based && !news.full) {
        const skip = (abs: string) => this.#exclude.some((x) => isInside(x, abs));
        const list = (dir: string, recursive: boolean) => this.#walk(dir, recursive);
        const o = { root: this.#root, skip, list };
        const changes = news.dirs.size === 0
          ? new Map()
          : await patchLook(this.#seen, news.dirs, o);
        return { walked: null, changes, truncated: this.#truncated };
      }
    }
    const walked = await this.#walk(this.#root, true, signal);
    return { walked, changes: null, truncated: this.#truncated };
  }

  /**
   * Watches the folders of `paths` when they are not the ones watched: the
   * new watcher starts first and takes over what the old one still collected.
   * `changes`: what a patch changed (no folder among them: the same folders).
   */
  async #rewatch(paths: ReadonlyMap<string, Seen>, changes: Look["changes"]): Promise<void> {
    if (this.#watch === null) return;
    const folder = (p: string) => paths.get(p)?.dir === true || this.#watched.has(p);
    if (this.#watch && changes !== null && ![...changes.keys()].some(folder)) return;
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
    const o = { root: this.#root, exclude: this.#exclude, signal, ...this.#limits };
    const { paths, truncated } = await walkLook(dir, recursive, o);
    if (dir === this.#root && recursive) this.#truncated = truncated;
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

export { COMMAND_UNDO_LIMITS, type CommandUndoLimits, undoNote };
