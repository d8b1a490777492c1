/**
 * Where a stdio MCP server's stderr is kept, and the file that keeps it: at
 * most {@link MAX_LOG_BYTES} in `<name>.log`, the one before in
 * `<name>.log.1`. The limit holds while the server runs, not only at its
 * start: a server writing without end cannot fill the disk.
 *
 * @module
 */
import { join } from "node:path";

/** Size past which a server's log is moved to `<name>.log.1` and begun again. */
export const MAX_LOG_BYTES = 5 * 1024 * 1024;

/** `<logs>/mcp/<name>.log`. */
export function stderrLogPath(logsDir: string, name: string): string {
  return join(logsDir, "mcp", `${name.replace(/[^A-Za-z0-9_.-]/g, "_")}.log`);
}

/** Appends a server's stderr to its log, moving the log aside each time it passes `max`. */
export class StderrLog {
  readonly #path: string;
  readonly #max: number;
  #file: Deno.FsFile | null;
  #size: number;

  private constructor(path: string, max: number, file: Deno.FsFile | null, size: number) {
    this.#path = path;
    this.#max = max;
    this.#file = file;
    this.#size = size;
  }

  /** Opens (or creates) the log at `path`; a log that cannot be opened takes nothing. */
  static open(path: string, max = MAX_LOG_BYTES): StderrLog {
    const log = new StderrLog(path, max, null, 0);
    log.#reopen();
    return log;
  }

  /** Appends `chunk` (best effort: a log that fails drops it). */
  write(chunk: Uint8Array | string): void {
    if (this.#file === null) return;
    const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    try {
      if (this.#size > 0 && this.#size + bytes.length > this.#max) this.#rotate();
      this.#file?.writeSync(bytes);
      this.#size += bytes.length;
    } catch {
      // the log is best effort
    }
  }

  close(): void {
    try {
      this.#file?.close();
    } catch {
      // already closed
    }
    this.#file = null;
  }

  #rotate(): void {
    this.close();
    try {
      Deno.renameSync(this.#path, `${this.#path}.1`);
    } catch {
      // begun again below either way
    }
    this.#reopen();
  }

  #reopen(): void {
    try {
      this.#file = Deno.openSync(this.#path, { append: true, create: true });
      this.#size = this.#file.statSync().size;
    } catch {
      this.#file = null;
    }
  }
}
