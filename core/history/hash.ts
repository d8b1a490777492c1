/**
 * SHA-256 of file contents, for undo's before/after states. WebCrypto hashes
 * on another thread: each digest is a trip there and back, ~0.1–0.8 ms on
 * the turn of a write (more on a busy machine, where both threads wait for a
 * core). Once {@link loadHasher} has loaded the runtime's native hasher
 * (`node:crypto`, ~13 ms to load, so the warm-up does it while the model
 * works), contents up to {@link SYNC_HASH_MAX} are hashed on the spot; larger
 * ones still go to WebCrypto, off the main thread.
 *
 * @example
 * ```ts
 * await loadHasher(); // optional: only speed changes
 * await sha256(new TextEncoder().encode("a")); // "ca978112…"
 * ```
 * @module
 */

/** The largest content hashed on the main thread (bytes). */
export const SYNC_HASH_MAX = 1 << 20;

let native: ((data: Uint8Array) => string) | null = null;

/** Loads the native hasher (once); never throws: without it, WebCrypto hashes everything. */
export async function loadHasher(): Promise<void> {
  if (native !== null) return;
  try {
    const { createHash } = await import("node:crypto");
    native = (data) => createHash("sha256").update(data).digest("hex");
  } catch {
    // WebCrypto stays
  }
}

/** SHA-256 hex digest of `data`. */
export async function sha256(data: Uint8Array): Promise<string> {
  if (native !== null && data.length <= SYNC_HASH_MAX) return native(data);
  const digest = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
