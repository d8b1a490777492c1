/**
 * What a confined command may write, by sandbox mode:
 *
 * - `workspace-write`: beneath the working directory, the session's private
 *   temp dir, the package caches in {@link DEFAULT_WRITABLE} that exist, and
 *   the folders listed in `sandbox.writable` (settings.json; `~` is the
 *   user's home), plus `/dev/null`.
 * - `read-only`: only the private temp dir and `/dev/null`.
 * - `off`: nothing is confined.
 *
 * Reading is never restricted. `sandbox.network: "off"` also refuses TCP
 * connections and listening where the kernel can (Landlock ABI 4).
 *
 * @example
 * ```ts
 * const p = await commandPolicy("workspace-write", { cwd, tmp, home, settings: { writable: ["~/.npm"] } });
 * ```
 * @module
 */
import { isAbsolute, join, relative, resolve } from "node:path";
import type { Policy } from "./landlock.ts";

/**
 * Package caches commands may write by default (when they exist): the
 * package managers check what they read from them against hashes.
 */
export const DEFAULT_WRITABLE: readonly string[] = [
  "~/.npm",
  "~/.cache/deno",
  "~/.cache/go-build",
  "~/go/pkg/mod",
  "~/.cargo/registry",
];

/** The sandbox modes (`--sandbox`). */
export const SANDBOX_MODES = ["workspace-write", "read-only", "off"] as const;

/** One of {@link SANDBOX_MODES}. */
export type SandboxMode = typeof SANDBOX_MODES[number];

/** `sandbox` in settings.json. */
export interface SandboxSettings {
  /** More folders commands may write beneath (`~/.cache/deno`, `~/.npm`). */
  writable?: string[];
  /** `"off"` refuses TCP connections and listening. */
  network?: "on" | "off";
  /** Where no sandbox works: `"allow"` runs commands without asking each time. */
  unconfined?: "ask" | "allow";
}

/** The places a policy is built from. */
export interface PolicyPlaces {
  cwd: string;
  /** The session's private temp dir. */
  tmp: string;
  /** The user's home, for `~` in `sandbox.writable`. */
  home: string;
  settings: SandboxSettings;
}

/** `~/x` → `<home>/x`; relative paths are taken from the working directory. */
export function expandPath(path: string, places: Pick<PolicyPlaces, "cwd" | "home">): string {
  if (path === "~") return places.home;
  if (path.startsWith("~/")) return join(places.home, path.slice(2));
  return isAbsolute(path) ? path : resolve(places.cwd, path);
}

/**
 * The policy of `mode` (not `off`), with real paths; folders of
 * `sandbox.writable` that do not exist are left out and listed in `missing`.
 */
export async function commandPolicy(
  mode: Exclude<SandboxMode, "off">,
  places: PolicyPlaces,
): Promise<{ policy: Policy; missing: string[] }> {
  const extra = (places.settings.writable ?? []).map((p) => expandPath(p, places));
  const defaults = DEFAULT_WRITABLE.map((p) => expandPath(p, places));
  const wanted = mode === "read-only"
    ? [places.tmp]
    : [places.cwd, places.tmp, ...extra, ...defaults];
  const dirs: string[] = [];
  const missing: string[] = [];
  for (const dir of wanted) {
    const real = await Deno.realPath(dir).catch(() => null);
    if (real === null && extra.includes(dir)) missing.push(dir);
    else if (real !== null && !dirs.includes(real)) dirs.push(real);
  }
  const files = Deno.build.os === "windows" ? [] : ["/dev/null"];
  return { policy: { dirs, files, noNetwork: places.settings.network === "off" }, missing };
}

/** Whether `path` is `dir` or beneath it. */
export function beneath(path: string, dir: string): boolean {
  const r = relative(dir, path);
  return r === "" || (!r.startsWith("..") && !isAbsolute(r));
}
