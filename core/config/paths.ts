/**
 * The `.minoc` home: where sessions, logs, backups and configuration live.
 *
 * It sits beside the executable: a compiled binary's directory, or the
 * directory of the entry module (`main.ts`, or `dist/minoc.js` for a bundle)
 * when run from source. `MINOC_HOME` overrides both. When that place cannot
 * be written, the user's home (`~/.minoc`) is used with a one-line warning.
 *
 * @example
 * ```ts
 * const home = await resolveHome(homeInputs());
 * if (home.warning) console.error(home.warning);
 * const { sessions, logs } = homePaths(home.dir);
 * ```
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Everything {@link resolveHome} looks at, so tests can inject it. */
export interface HomeInputs {
  env: { MINOC_HOME?: string; HOME?: string; USERPROFILE?: string };
  /** True for a `deno compile` binary. */
  standalone: boolean;
  /** `Deno.execPath()`: the binary (compiled) or the deno executable (source). */
  execPath: string;
  /** `Deno.mainModule`: a `file:` URL of the entry module. */
  mainModule: string;
}

/** The resolved home directory, and a warning when it had to fall back. */
export interface MinocHome {
  dir: string;
  warning?: string;
}

/** The folders inside a `.minoc` home. */
export interface HomePaths {
  sessions: string;
  logs: string;
  config: string;
  backups: string;
  /** The last analysis of each project (core/agent/project_cache.ts). */
  projects: string;
}

/** Reads the real inputs from the running process (needs no permission but env). */
export function homeInputs(): HomeInputs {
  return {
    env: {
      MINOC_HOME: readEnv("MINOC_HOME"),
      HOME: readEnv("HOME"),
      USERPROFILE: readEnv("USERPROFILE"),
    },
    standalone: Deno.build.standalone === true,
    execPath: Deno.execPath(),
    mainModule: Deno.mainModule,
  };
}

/**
 * Picks the `.minoc` directory and makes sure it exists and can be written.
 * Never throws: an unusable place comes back with a `warning`.
 */
export async function resolveHome(inputs: HomeInputs): Promise<MinocHome> {
  const preferred = preferredHome(inputs);
  if (preferred.dir !== undefined && await isWritableDir(preferred.dir)) {
    return { dir: preferred.dir };
  }
  const fallback = userHome(inputs);
  const wanted = preferred.dir ?? preferred.reason;
  if (fallback === undefined) {
    return {
      dir: preferred.dir ?? resolve(".minoc"),
      warning: `Cannot write to "${wanted}" and no HOME is set: sessions and logs may fail`,
    };
  }
  const usable = await isWritableDir(fallback);
  const tail = usable ? "" : ` (which is not writable either)`;
  return { dir: fallback, warning: `Cannot write to "${wanted}": using "${fallback}"${tail}` };
}

/** The standard folders inside a home directory (not created here). */
export function homePaths(dir: string): HomePaths {
  return {
    sessions: join(dir, "history", "sessions"),
    logs: join(dir, "logs"),
    config: join(dir, "config"),
    backups: join(dir, "history", "backups"),
    projects: join(dir, "cache", "projects"),
  };
}

function preferredHome(inputs: HomeInputs): { dir?: string; reason: string } {
  const override = inputs.env.MINOC_HOME;
  if (override !== undefined && override !== "") {
    return { dir: resolve(override), reason: override };
  }
  if (inputs.standalone) return { dir: join(dirname(inputs.execPath), ".minoc"), reason: "" };
  if (!inputs.mainModule.startsWith("file:")) {
    return { reason: `beside ${inputs.mainModule}` };
  }
  return { dir: join(dirname(fileURLToPath(inputs.mainModule)), ".minoc"), reason: "" };
}

function userHome(inputs: HomeInputs): string | undefined {
  const home = inputs.env.HOME || inputs.env.USERPROFILE;
  return home ? join(home, ".minoc") : undefined;
}

/** Creates the directory and a probe file in it; true when both work. */
async function isWritableDir(dir: string): Promise<boolean> {
  const probe = join(dir, `.write-probe-${crypto.randomUUID()}`);
  try {
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(probe, "");
    await Deno.remove(probe);
    return true;
  } catch {
    return false;
  }
}

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}
