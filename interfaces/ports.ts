/**
 * The side-effect ports tools work through: the file system, the file
 * tracker, background processes and the command spawner (the OS sandbox).
 * Tests hand in real temp dirs or small fakes; dry-run an overlay.
 *
 * @module
 */

/** Metadata of a file or directory; `null` from `stat` means it does not exist. */
export interface FileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtimeMs: number | null;
}

/** An entry of a directory listing. */
export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
}

/**
 * File-system side effects. Paths are absolute. The default implementation is
 * the real disk; dry-run wraps it in an in-memory overlay.
 */
export interface FsPort {
  /**
   * The file's bytes. With `maxBytes`, an implementation may stop after
   * `maxBytes + 1` bytes: a result longer than `maxBytes` means "larger".
   */
  readFile(path: string, options?: { maxBytes?: number }): Promise<Uint8Array>;
  /** Writes the file; the parent directory must exist. */
  writeFile(path: string, data: Uint8Array): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  stat(path: string): Promise<FileInfo | null>;
  readDir(path: string): Promise<DirEntry[]>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
}

/** Freshness of a file against what the model last read of it. */
export type Freshness = "fresh" | "unread" | "changed";

/** Remembers what the model read and wrote (the read-modify-write guard). */
export interface FileTracker {
  /** After a read or a write by the agent: the file as it is now. */
  remember(path: string, info: FileInfo): void;
  /** Whether `path` (currently `info`) may be overwritten or edited. */
  check(path: string, info: FileInfo): Freshness;
}

/** A background process started by `start_process`. */
export interface ProcessInfo {
  id: string;
  command: string;
  pid: number;
  startedAt: string;
  /** null while running. */
  exitCode: number | null;
}

/** Background processes of one session; all are stopped when minoc exits. */
export interface ProcessTable {
  /** Starts `command`; `spawner` confines it (see {@link CommandSandbox}). */
  start(
    command: string,
    cwd: string,
    env: Record<string, string>,
    spawner?: CommandSpawner | null,
  ): ProcessInfo;
  list(): ProcessInfo[];
  /** The last `tail` lines of combined output (all when omitted). */
  output(id: string, tail?: number): string | null;
  kill(id: string): Promise<boolean>;
  killAll(): Promise<void>;
}

/** A process the exec tools started, confined or not. */
export interface SpawnedProcess {
  readonly pid: number;
  readonly status: Promise<Deno.CommandStatus>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  /** The process no longer keeps minoc alive. */
  unref(): void;
}

/** Starts one program with stdin closed, stdout and stderr piped, in a process group of its own. */
export interface CommandSpawner {
  spawn(
    program: string,
    args: string[],
    options: { cwd: string; env: Record<string, string> },
  ): SpawnedProcess;
}

/** The OS sandbox of a session's commands (`execute_command`, `start_process`), see `core/sandbox/`. */
export interface CommandSandbox {
  /** The spawner for the next command; null when commands run unconfined. Throws when the sandbox fails. */
  spawner(): Promise<CommandSpawner | null>;
  /** Paths outside the writable places that a failed confined command (`command`) was refused. */
  refusedPaths(output: string, cwd: string, command?: string): Promise<string[]>;
  /**
   * Asks the user whether to run `command` again without the sandbox after
   * `paths` were refused; always false without a terminal (`run --yes` never escalates).
   */
  escalate(command: string, paths: readonly string[]): Promise<boolean>;
}
