/**
 * Remembers what the `__confine` helper's probe found (the Landlock ABI), so
 * that a session does not start a second minoc process just to ask the kernel
 * again: the probe is a whole Deno start (~100 ms of CPU), and on a small
 * machine it competed with the session's first turns (issue 24).
 *
 * The answer is kept in `landlock-probe.json` in minoc's cache folder (the one
 * the bundle unpacks into: `$MINOC_CACHE_DIR`, else `$XDG_CACHE_HOME/minoc`,
 * else `~/.cache/minoc`), under a key that holds everything the answer
 * depends on: the kernel's release, the Deno that runs the helper and the
 * helper's command line, beside the time this machine booted (now minus its
 * uptime, so within a second or two: Deno lets only `--allow-all` read the
 * boot's id in `/proc`). Another key, or a boot more than
 * {@link BOOT_SLACK_S} seconds apart, asks the helper again. Only a working
 * Landlock is remembered; a failed probe is tried again next time. A wrong
 * entry cannot open the sandbox: the helper confines itself before every
 * command and refuses to run it when that fails (`confine_main.ts`, exit
 * 125). `minoc doctor` always asks the helper and rewrites the entry.
 *
 * @example
 * ```ts
 * const key = probeKey(helperCommand());
 * const abi = key ? rememberedAbi(key) : null;
 * if (abi === null && key) rememberAbi(key, await askTheHelper());
 * ```
 *
 * A key is `{ text, boot }`:
 * ```ts
 * probeKey({ program: "/usr/bin/deno", args: ["run", "main.js", "__confine"] });
 * // { text: '{"kernel":"6.8.0",…}', boot: 1764300000 }
 * ```
 * @module
 */
import { join } from "node:path";

/** The file's name in the cache folder. */
export const PROBE_FILE = "landlock-probe.json";

/** Where the probe's answer is kept, or null when there is no cache folder. */
export function probeCacheFile(): string | null {
  const env = (k: string) => {
    try {
      return Deno.env.get(k) ?? "";
    } catch {
      return "";
    }
  };
  const dir = env("MINOC_CACHE_DIR") ||
    (env("XDG_CACHE_HOME") ? join(env("XDG_CACHE_HOME"), "minoc") : "") ||
    (env("HOME") ? join(env("HOME"), ".cache", "minoc") : "");
  return dir === "" ? null : join(dir, PROBE_FILE);
}

/** Seconds two readings of the boot time may differ by and still be the same boot. */
export const BOOT_SLACK_S = 5;

/** What the answer depends on: the same `text` and a boot within {@link BOOT_SLACK_S} seconds. */
export interface ProbeKey {
  text: string;
  /** When this machine booted, in seconds since the epoch. */
  boot: number;
}

/** The key of this machine's answer; null when its boot time cannot be read (no `--allow-sys`). */
export function probeKey(helper: { program: string; args: readonly string[] }): ProbeKey | null {
  let boot: number;
  try {
    boot = Math.round(Date.now() / 1000 - Deno.osUptime());
  } catch {
    return null;
  }
  const text = JSON.stringify({
    kernel: Deno.osRelease(),
    deno: Deno.version.deno,
    helper: [helper.program, ...helper.args],
  });
  return { text, boot };
}

/** The largest probe cache file read (an answer takes ~200 bytes). */
const PROBE_FILE_MAX_BYTES = 64 * 1024;

/** The ABI remembered under `key`, or null (no file, another key, or not readable as one). */
export function rememberedAbi(key: ProbeKey, file = probeCacheFile()): number | null {
  if (file === null) return null;
  try {
    // Only a small regular file is read: a FIFO or a device there must not hang a start.
    const info = Deno.statSync(file);
    if (!info.isFile || info.size > PROBE_FILE_MAX_BYTES) return null;
    const kept = JSON.parse(Deno.readTextFileSync(file)) as Record<string, unknown>;
    const { abi, boot } = kept;
    const same = kept.key === key.text && typeof boot === "number" &&
      Math.abs(boot - key.boot) <= BOOT_SLACK_S;
    return same && typeof abi === "number" && Number.isInteger(abi) && abi > 0 ? abi : null;
  } catch {
    return null;
  }
}

/** Keeps `abi` under `key` (written whole, then renamed into place); never throws. */
export function rememberAbi(key: ProbeKey, abi: number, file = probeCacheFile()): void {
  if (file === null) return;
  const tmp = `${file}.${crypto.randomUUID()}.tmp`;
  try {
    Deno.mkdirSync(join(file, ".."), { recursive: true });
    Deno.writeTextFileSync(tmp, JSON.stringify({ key: key.text, boot: key.boot, abi }) + "\n");
    Deno.renameSync(tmp, file);
  } catch {
    try {
      Deno.removeSync(tmp);
    } catch {
      // nothing was written
    }
  }
}
