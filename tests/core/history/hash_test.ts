/** `sha256()`: the same digests from WebCrypto and the native hasher, and no thread trip for small contents. */
import assert from "node:assert/strict";
import { loadHasher, sha256, SYNC_HASH_MAX } from "../../../core/history/hash.ts";

async function webCrypto(data: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function bytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + (i >> 8)) & 0xff;
  return out;
}

Deno.test("sha256() gives the known digest, before and after the native hasher is loaded", async () => {
  const abc = new TextEncoder().encode("abc");
  const known = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  assert.equal(await sha256(abc), known);
  await loadHasher();
  assert.equal(await sha256(abc), known);
});

Deno.test("sha256() matches WebCrypto at every size, on both sides of the main-thread bound", async () => {
  await loadHasher();
  for (const n of [0, 1, 55, 56, 64, 1000, 65_536, SYNC_HASH_MAX, SYNC_HASH_MAX + 1, 3 << 20]) {
    const data = bytes(n);
    assert.equal(await sha256(data), await webCrypto(data), `${n} bytes`);
  }
});

Deno.test("sha256() of a small content resolves within the same turn of the event loop once loaded", async () => {
  await loadHasher();
  let small = false;
  let large = false;
  void sha256(bytes(4096)).then(() => small = true);
  const later = sha256(bytes(SYNC_HASH_MAX + 1)).then(() => large = true);
  for (let i = 0; i < 5; i++) await Promise.resolve();
  assert.equal(small, true, "hashed on the spot");
  assert.equal(large, false, "a large content goes to WebCrypto's thread");
  await later;
  assert.equal(large, true);
});
