/**
 * File backups for undo: one store per session under
 * `<home>/history/backups/<sessionId>/`.
 *
 * Before a change, the path's previous state (its content, or its absence) is
 * saved and the change is appended to `manifest.jsonl`, one JSON object per
 * line, so that a crash at any instant leaves a readable manifest (a partial
 * last line is ignored). Later lines with the same `id` patch an entry (its
 * after-hash, or `undone`). Previous contents live in `files/<id>`.
 *
 * Changes are grouped: the lead opens a group around each tool call, and
 * undo reverts one group at a time.
 *
 * @example
 * ```ts
 * const store = await createBackupStore(join(paths.backups, sessionId), sessionId);
 * store.beginGroup("write_to_file notes.md");
 * await backingUpFs(realFs, store).writeFile(abs, data);
 * const backupIds = store.endGroup(); // ["c1"]
 * ```
 * @module
 */
import { join } from "node:path";
import { realFs } from "../tools/fs_port.ts";

/** The state token of a directory (file states are SHA-256 hex digests). */
export const DIR_STATE = "dir";

/**
 * One change as the manifest records it. A state is the SHA-256 hex of a
 * file's content, {@link DIR_STATE} for a directory, or null for "absent".
 */
export interface BackupEntry {
  /** `c1`, `c2`…: unique in the session, in the order the changes happened. */
  id: string;
  /** The change group (one tool call) it belongs to. */
  group: number;
  /** What the group did, e.g. `write_to_file notes.md`. */
  label?: string;
  /** Absolute path. */
  path: string;
  /** Whether the path existed before the change. */
  existed: boolean;
  /** The previous content, relative to the store's folder (files only). */
  backupFile?: string;
  /** State before the change. */
  beforeHash: string | null;
  /** State after the change. */
  afterHash: string | null;
  /** ISO 8601. */
  timestamp: string;
  /** Set when undo reverted it. */
  undone?: boolean;
}

/** What a path held before a change. */
export type PriorState =
  | { kind: "absent" }
  | { kind: "dir" }
  | { kind: "file"; content: Uint8Array };

/** The backups of one session. */
export interface BackupStore {
  /** `<home>/history/backups/<sessionId>`. */
  readonly dir: string;
  readonly sessionId: string;
  /** Starts a change group; changes until {@link endGroup} belong to it. */
  beginGroup(label: string): void;
  /** Ends the open group; returns the ids of the changes it recorded. */
  endGroup(): string[];
  /** The id this group already gave `path`, if any. */
  changeIn(path: string): string | undefined;
  /**
   * Saves `prior` (the state before a change) and appends the entry; returns
   * its id. Outside a group the change forms a group of its own.
   */
  recordChange(path: string, prior: PriorState, afterHash: string | null): Promise<string>;
  /**
   * Makes the store's folder and manifest ahead of its first change (a call
   * that may change files is on its way), so that change writes only its
   * own lines. Calling it again does nothing once it has succeeded; it never
   * throws (after a failure, the next call or the first change tries again).
   */
  prepare(): Promise<void>;
  /** Appends a patch to an entry (a later after-hash, or `undone`). */
  patch(id: string, fields: { afterHash?: string | null; undone?: boolean }): Promise<void>;
  /** Every entry, oldest first, with patches applied. */
  entries(): BackupEntry[];
  /** The saved previous content of a file entry. */
  readBackup(entry: BackupEntry): Promise<Uint8Array>;
}

/** Whether two byte arrays hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** SHA-256 hex digest of `data`. */
export async function sha256(data: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Opens the backup store of a session, reading its manifest when there is
 * one. Nothing is written until the first change (or {@link BackupStore.prepare}).
 */
export async function createBackupStore(dir: string, sessionId: string): Promise<BackupStore> {
  const manifest = join(dir, "manifest.jsonl");
  let text = "";
  try {
    text = await Deno.readTextFile(manifest);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      throw new Error(`Cannot read backups "${manifest}": ${(error as Error).message}`);
    }
  }
  return new Store(dir, sessionId, parseManifest(text), text !== "" && !text.endsWith("\n"));
}

/** Reads manifest text: entries in order, patches applied, broken lines ignored. */
export function parseManifest(text: string): BackupEntry[] {
  const byId = new Map<string, BackupEntry>();
  for (const line of text.split("\n")) {
    const value = parseLine(line);
    if (value === undefined) continue;
    const known = byId.get(value.id);
    if (isEntry(value) && known === undefined) byId.set(value.id, { ...value });
    else if (known !== undefined) applyPatch(known, value);
  }
  return [...byId.values()];
}

function parseLine(line: string): Record<string, unknown> & { id: string } | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const rec = value as Record<string, unknown>;
    return typeof rec.id === "string" ? rec as Record<string, unknown> & { id: string } : undefined;
  } catch {
    return undefined;
  }
}

function isEntry(v: Record<string, unknown>): v is Record<string, unknown> & BackupEntry {
  return typeof v.path === "string" && typeof v.group === "number" &&
    typeof v.existed === "boolean" && typeof v.timestamp === "string" &&
    isState(v.beforeHash) && isState(v.afterHash);
}

function isState(v: unknown): v is string | null {
  return v === null || typeof v === "string";
}

function applyPatch(entry: BackupEntry, patch: Record<string, unknown>): void {
  if (isState(patch.afterHash)) entry.afterHash = patch.afterHash;
  if (patch.undone === true) entry.undone = true;
}

class Store implements BackupStore {
  readonly #entries: BackupEntry[];
  readonly #manifest: string;
  #needsNewline: boolean;
  #ready: Promise<void> | null = null;
  #nextSeq: number;
  #nextGroup: number;
  #open: { group: number; label: string; ids: Map<string, string> } | null = null;

  constructor(
    readonly dir: string,
    readonly sessionId: string,
    entries: BackupEntry[],
    needsNewline: boolean,
  ) {
    this.#entries = entries;
    this.#manifest = join(dir, "manifest.jsonl");
    this.#needsNewline = needsNewline;
    const seqs = entries.map((e) => Number(e.id.slice(1))).filter(Number.isFinite);
    this.#nextSeq = Math.max(0, ...seqs) + 1;
    this.#nextGroup = Math.max(0, ...entries.map((e) => e.group)) + 1;
  }

  beginGroup(label: string): void {
    this.#open = { group: this.#nextGroup++, label, ids: new Map() };
  }

  endGroup(): string[] {
    const ids = [...(this.#open?.ids.values() ?? [])];
    this.#open = null;
    return ids;
  }

  changeIn(path: string): string | undefined {
    return this.#open?.ids.get(path);
  }

  prepare(): Promise<void> {
    return this.#prepare().catch(() => {});
  }

  async recordChange(path: string, prior: PriorState, afterHash: string | null): Promise<string> {
    await this.#prepare();
    const id = `c${this.#nextSeq++}`;
    const group = this.#open?.group ?? this.#nextGroup++;
    const entry: BackupEntry = {
      id,
      group,
      ...(this.#open ? { label: this.#open.label } : {}),
      path,
      existed: prior.kind !== "absent",
      beforeHash: prior.kind === "absent" ? null : DIR_STATE,
      afterHash,
      timestamp: new Date().toISOString(),
    };
    if (prior.kind === "file") {
      entry.backupFile = `files/${id}`;
      entry.beforeHash = await sha256(prior.content);
      await realFs.writeFile(join(this.dir, entry.backupFile), prior.content);
    }
    this.#append(entry);
    this.#entries.push(entry);
    this.#open?.ids.set(path, id);
    return id;
  }

  async patch(id: string, fields: { afterHash?: string | null; undone?: boolean }): Promise<void> {
    const entry = this.#entries.find((e) => e.id === id);
    if (entry === undefined) {
      throw new Error(`Unknown backup "${id}" in session "${this.sessionId}"`);
    }
    await this.#prepare();
    this.#append({ id, ...fields, timestamp: new Date().toISOString() });
    applyPatch(entry, fields);
  }

  entries(): BackupEntry[] {
    return this.#entries.map((e) => ({ ...e }));
  }

  readBackup(entry: BackupEntry): Promise<Uint8Array> {
    if (entry.backupFile === undefined) {
      return Promise.reject(new Error(`Backup "${entry.id}" holds no file content`));
    }
    return Deno.readFile(join(this.dir, entry.backupFile));
  }

  /** The folders and the manifest (empty until the first change): made once, tried again after a failure. */
  #prepare(): Promise<void> {
    this.#ready ??= (async () => {
      await realFs.mkdir(join(this.dir, "files"), { recursive: true });
      Deno.writeTextFileSync(this.#manifest, "", { append: true });
    })().catch((error) => {
      this.#ready = null;
      throw error;
    });
    return this.#ready;
  }

  /** Appends a manifest line: one short line, written synchronously (see fs_port.ts). */
  #append(value: object): void {
    // After a crash mid-line, start on a fresh line: the broken one stays ignored.
    const lead = this.#needsNewline ? "\n" : "";
    Deno.writeTextFileSync(this.#manifest, `${lead}${JSON.stringify(value)}\n`, { append: true });
    this.#needsNewline = false;
  }
}
