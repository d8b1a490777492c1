/**
 * Runs minoc as a real subprocess: from source (`main.ts`) by default, or the
 * bundled file when `MINOC_ENTRY` names it (CI tests the shipped artifact).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The script minoc runs from. */
export function entry(): string {
  return Deno.env.get("MINOC_ENTRY") ?? join(ROOT, "main.ts");
}

/** Permission flags minoc needs at run time. */
export const RUN_FLAGS = [
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-run",
  "--allow-sys",
  // As the README's install section runs the bundle: a small young generation, and functions
  // compiled with their module, so the code cache holds them (bench/NOTES.md).
  "--v8-flags=--max-semi-space-size=2,--no-lazy",
];

/** The result of one run. */
export interface MinocRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link runMinoc}. */
export interface RunOptions {
  cwd: string;
  /** Environment added to a clean one (PATH, HOME and MINOC_HOME are set for you). */
  env?: Record<string, string>;
  stdin?: string;
  home?: string;
  /** Kills the process after this long (a liveness test must end even when minoc hangs). */
  timeoutMs?: number;
}

/** Runs `minoc <args>` to its end. */
export function runMinoc(args: string[], o: RunOptions): Promise<MinocRun> {
  return runDeno(["run", "--quiet", ...RUN_FLAGS, entry(), ...args], {
    cwd: o.cwd,
    env: minocEnv(o),
    stdin: o.stdin,
    timeoutMs: o.timeoutMs,
  });
}

/**
 * Runs `deno <args>` with exactly `env`, feeding `stdin` when given, to its
 * end, or until `timeoutMs` has passed: then it is killed, and its stderr
 * ends with a line saying so.
 */
export async function runDeno(
  args: string[],
  o: { cwd: string; env: Record<string, string>; stdin?: string; timeoutMs?: number },
): Promise<MinocRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: o.cwd,
    env: o.env,
    clearEnv: true,
    stdin: o.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (o.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(o.stdin));
    await w.close();
  }
  let killed = false;
  const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, o.timeoutMs);
  const out = await child.output().finally(() => clearTimeout(timer));
  const dec = new TextDecoder();
  const stderr = dec.decode(out.stderr) + (killed ? `\n[killed after ${o.timeoutMs} ms]\n` : "");
  return { code: out.code, stdout: dec.decode(out.stdout), stderr };
}

/** The clean environment a test run of minoc gets. */
export function minocEnv(o: { cwd: string; env?: Record<string, string>; home?: string }) {
  const keep = ["PATH", "TERM", "LANG", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"];
  // No local-server discovery unless a test asks for it (a real Ollama must not change results).
  const env: Record<string, string> = {
    NO_COLOR: "1",
    DENO_DIR: denoDir(),
    MINOC_DISCOVER_PORTS: "none",
    // Where the bundle's launcher unpacks the program: shared, so it unpacks once per build.
    MINOC_CACHE_DIR: Deno.env.get("MINOC_CACHE_DIR") ?? join(denoDir(), "..", "minoc"),
  };
  for (const k of keep) {
    const v = Deno.env.get(k);
    if (v !== undefined) env[k] = v;
  }
  env.HOME = o.home ?? join(o.cwd, ".home");
  env.MINOC_HOME = join(env.HOME, ".minoc");
  return { ...env, ...o.env };
}

/** Deno's cache, so a child with another HOME finds the packages already fetched. */
export function denoDir(): string {
  const set = Deno.env.get("DENO_DIR");
  if (set) return set;
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  if (xdg) return join(xdg, "deno");
  return join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
}

/** The shell command line that runs minoc (for a terminal test). */
export function minocCommandLine(args: string[]): string {
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  return [Deno.execPath(), "run", "--quiet", ...RUN_FLAGS, entry(), ...args].map(q).join(" ");
}

/** Every session file below a `.minoc` home, parsed. */
export async function sessionFiles(minocHome: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  const root = join(minocHome, "history", "sessions");
  const days = await Array.fromAsync(Deno.readDir(root)).catch(() => [] as Deno.DirEntry[]);
  for (const day of days) {
    for await (const f of Deno.readDir(join(root, day.name))) {
      if (f.name.endsWith(".json")) {
        out.push(JSON.parse(await Deno.readTextFile(join(root, day.name, f.name))));
      }
    }
  }
  return out;
}

/**
 * A temporary project whose minoc home (`.home/.minoc`, as {@link runMinoc}
 * sets it) holds `settings` as its settings.json; the project's real path.
 */
export async function projectWithSettings(
  prefix: string,
  settings: Record<string, unknown>,
): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  const config = join(dir, ".home", ".minoc", "config");
  await Deno.mkdir(config, { recursive: true });
  await Deno.writeTextFile(join(config, "settings.json"), JSON.stringify(settings));
  return dir;
}
