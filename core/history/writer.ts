/**
 * Positioned writes into one session file (layout in `format.ts`).
 *
 * Appending a message is a single `write` at the offset where the previous
 * message ended: `,\n<message>\n],"metadata":{…}}` plus spaces so the new
 * bytes always cover the old tail. The cost depends on the message, not on the
 * session's length. A write that completes leaves valid JSON. Linux can cut a
 * write that spans several pages short when the process is killed in the
 * middle of it; such a file is still read back by `parseSessionText` (and
 * fixed by `repairSession`) with every complete message kept.
 *
 * Calls are queued, so they reach the file in the order they were made.
 *
 * @module
 */
import type { SessionMetadata } from "../../interfaces/history.ts";
import { tailText } from "./format.ts";
import type { SessionLock } from "./session_lock.ts";

const encoder = new TextEncoder();
const SPACE = 0x20;
const NEWLINE = 0x0a;

/** Writes one session file through a handle kept open until {@link SessionWriter.close}. */
export class SessionWriter {
  #file: Deno.FsFile;
  readonly #path: string;
  /** Offset just past the last message (or the header). */
  #end: number;
  /** Bytes in the file. */
  #size: number;
  #lines: number;
  #queue: Promise<void> = Promise.resolve();
  #closed = false;
  /** The session's lock (session_lock.ts), released on close. */
  #lock: SessionLock | null = null;
  /** The tail text of the last write that completed. */
  #lastTail = "";
  /** A write failed: later ones are skipped (see #enqueue). */
  #failed = false;
  /** Where a failed write is told (see {@link SessionWriter.hold}). */
  #onError: ((message: string) => void) | null = null;

  private constructor(file: Deno.FsFile, path: string, end: number, size: number, lines: number) {
    this.#file = file;
    this.#path = path;
    this.#end = end;
    this.#size = size;
    this.#lines = lines;
  }

  /** Creates the file (it must not exist) holding a header and no message. */
  static async create(
    path: string,
    header: string,
    metadata: SessionMetadata,
  ): Promise<SessionWriter> {
    const file = await Deno.open(path, { read: true, write: true, createNew: true });
    const head = encoder.encode(header);
    const writer = new SessionWriter(file, path, head.length, 0, 0);
    try {
      const text = tailText(metadata);
      await writer.#writeAt(0, concat(head, writer.#tailBytes(text, head.length)));
      writer.#lastTail = text;
    } catch (error) {
      file.close();
      throw error;
    }
    return writer;
  }

  /**
   * Opens an existing session file to append more messages (resume): the file
   * is first replaced atomically by one holding `header`, `messageJsons` and
   * `metadata` in the layout above, which also repairs a file cut by a crash.
   * This one write costs the session's size; later appends do not.
   */
  static async reopen(
    path: string,
    header: string,
    messageJsons: string[],
    metadata: SessionMetadata,
  ): Promise<SessionWriter> {
    const file = await Deno.open(path, { read: true, write: true });
    const writer = new SessionWriter(file, path, 0, 0, 0);
    try {
      await writer.rewrite(header, messageJsons, metadata);
    } catch (error) {
      file.close();
      throw error;
    }
    return writer;
  }

  /**
   * Holds the session's lock until {@link SessionWriter.close}, and with
   * `onError`, tells the first failed write there (once) instead of
   * rejecting: later writes are skipped, the file keeps its whole messages.
   */
  hold(lock: SessionLock, onError?: (message: string) => void): void {
    this.#lock = lock;
    this.#onError = onError ?? null;
  }

  /** Appends one message (its JSON, one line) and the current metadata. */
  /** Whether a write failed, so later ones are skipped (see `#enqueue`). */
  get failed(): boolean {
    return this.#failed;
  }

  append(messageJson: string, metadata: SessionMetadata): Promise<void> {
    return this.#enqueue(async () => {
      const body = encoder.encode(`${this.#lines === 0 ? "\n" : ",\n"}${messageJson}`);
      const text = tailText(metadata);
      const tail = this.#tailBytes(text, this.#end + body.length);
      await this.#writeOrRestore(this.#end, concat(body, tail));
      this.#end += body.length;
      this.#lines++;
      this.#lastTail = text;
    });
  }

  /** Rewrites the tail with new metadata. */
  writeTail(metadata: SessionMetadata): Promise<void> {
    return this.#enqueue(async () => {
      const text = tailText(metadata);
      await this.#writeOrRestore(this.#end, this.#tailBytes(text, this.#end));
      this.#lastTail = text;
    });
  }

  /**
   * A write that failed part way (a full disk) is undone: the last good tail
   * goes back at the end of the last whole message and the file is cut
   * there. Neither needs a new disk block, so the file is valid JSON again.
   */
  async #writeOrRestore(offset: number, bytes: Uint8Array): Promise<void> {
    try {
      await this.#writeAt(offset, bytes);
    } catch (error) {
      try {
        const tail = encoder.encode(`${this.#lastTail}\n`);
        await writeAll(this.#file, this.#end, tail);
        this.#file.truncateSync(this.#end + tail.length);
        this.#size = this.#end + tail.length;
      } catch {
        // the file is cut mid-message; the next start repairs it (store.ts)
      }
      throw error;
    }
  }

  /**
   * Replaces the whole file atomically (temp file, then rename) with a new
   * header and the given message lines; used when the header changes.
   */
  rewrite(header: string, messageJsons: string[], metadata: SessionMetadata): Promise<void> {
    return this.#enqueue(async () => {
      const body = messageJsons.length === 0 ? "" : `\n${messageJsons.join(",\n")}`;
      const head = encoder.encode(header + body);
      const temp = `${this.#path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
      const file = await Deno.open(temp, { read: true, write: true, createNew: true });
      try {
        const tail = encoder.encode(`${tailText(metadata)}\n`);
        await writeAll(file, 0, concat(head, tail));
        await Deno.rename(temp, this.#path);
      } catch (error) {
        file.close();
        await Deno.remove(temp).catch(() => {});
        throw error;
      }
      this.#file.close();
      this.#file = file;
      this.#end = head.length;
      this.#size = head.length + encoder.encode(tailText(metadata)).length + 1;
      this.#lines = messageJsons.length;
      this.#lastTail = tailText(metadata);
    });
  }

  /** Waits for queued writes, flushes them to disk and closes the file. */
  close(): Promise<void> {
    if (this.#closed) return this.#queue;
    const done = this.#enqueue(async () => {
      await this.#file.syncData().catch(() => {});
      this.#file.close();
    }, true).finally(() => this.#lock?.release());
    this.#closed = true;
    return done;
  }

  /**
   * Queues a write. After one write failed (the file was restored to its
   * last whole message), later writes are skipped: a message missing in the
   * middle would be worse than a session that stops at a known point.
   */
  #enqueue(job: () => Promise<void>, always = false): Promise<void> {
    if (this.#closed) {
      return Promise.reject(new Error(`Session file "${this.#path}" is already closed`));
    }
    const guarded = async () => {
      if (this.#failed && !always) return;
      try {
        await job();
      } catch (error) {
        if (always || this.#onError === null) throw error;
        this.#failed = true;
        const why = error instanceof Error ? error.message : String(error);
        this.#onError(
          `Cannot write the session file "${this.#path}": ${why}; it keeps what was ` +
            "recorded so far and this session goes on unrecorded",
        );
      }
    };
    const run = this.#queue.then(guarded);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** The tail (`tailText`) for a write that reaches `at`, padded to cover every old byte. */
  #tailBytes(text: string, at: number): Uint8Array {
    const core = encoder.encode(text);
    const padding = Math.max(0, this.#size - (at + core.length + 1));
    const bytes = new Uint8Array(core.length + padding + 1);
    bytes.set(core);
    bytes.fill(SPACE, core.length, core.length + padding);
    bytes[bytes.length - 1] = NEWLINE;
    return bytes;
  }

  async #writeAt(offset: number, bytes: Uint8Array): Promise<void> {
    await writeAll(this.#file, offset, bytes);
    this.#size = Math.max(this.#size, offset + bytes.length);
  }
}

/**
 * One positioned write, synchronous: a few small system calls cost far less
 * than the promise hops of the async API, and the next write waits in the
 * queue either way.
 */
function writeAll(file: Deno.FsFile, offset: number, bytes: Uint8Array): Promise<void> {
  file.seekSync(offset, Deno.SeekMode.Start);
  let written = 0;
  while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
  return Promise.resolve();
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
