/**
 * How minoc starts every command: a clean environment (only what it is
 * given), stdin closed, stdout and stderr piped, and in its own process
 * group where the OS has them, so the whole tree can be stopped.
 *
 * @example
 * ```ts
 * const child = spawnPiped("bash", ["-c", "ls"], { cwd: "/p", env: { PATH: "/usr/bin" } });
 * ```
 * @module
 */

/** Where and how to start it. */
export interface PipedOptions {
  cwd: string;
  env: Record<string, string>;
  /** Its own process group (default: everywhere but Windows). */
  detached?: boolean;
  /** Windows: pass the arguments as written (cmd.exe quoting). */
  windowsRawArguments?: boolean;
}

/** Starts `program`; throws when it cannot start (for example a missing `cwd`). */
export function spawnPiped(program: string, args: string[], o: PipedOptions): Deno.ChildProcess {
  return new Deno.Command(program, {
    args,
    cwd: o.cwd,
    env: o.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: o.detached ?? Deno.build.os !== "windows",
    windowsRawArguments: o.windowsRawArguments ?? false,
  }).spawn();
}
