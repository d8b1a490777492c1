/**
 * The platform shell, and process trees that can be stopped as a whole.
 *
 * On Unix every command starts in a session of its own (`detached: true` makes
 * Deno call `setsid`), so the shell and everything it starts share one process
 * group whose id is the shell's pid; killing `-pid` reaches a child of a child
 * too. A process that starts a new session itself (`setsid cmd`) escapes the
 * group and is not reached. On Windows the tree is stopped with
 * `taskkill /T /F`, which follows parent ids (no detaching there: a detached
 * process has no console, so console programs it starts would open windows).
 *
 * @example
 * ```ts
 * const child = spawnShell("npm test", { cwd, env: commandEnv(ctx.env) });
 * await killTree(child.pid);
 * ```
 * @module
 */
import { spawnPiped } from "../sandbox/spawn_piped.ts";
import { withoutCredentials } from "./child_env.ts";

import type { CommandSpawner, SpawnedProcess } from "../../interfaces/tool.ts";

/** The program and arguments that run one command line. */
export interface ShellInvocation {
  cmd: string;
  args: string[];
  /** Windows only: pass `args` to the program unquoted (cmd.exe). */
  rawArgs?: boolean;
}

const IS_WINDOWS = Deno.build.os === "windows";
let cachedShell: ((command: string) => ShellInvocation) | null = null;

/** Whether an executable called `name` is on the PATH. */
export function onPath(name: string): boolean {
  const path = Deno.env.get("PATH") ?? "";
  const sep = IS_WINDOWS ? ";" : ":";
  const exts = IS_WINDOWS ? ["", ".exe", ".cmd", ".bat"] : [""];
  for (const dir of path.split(sep)) {
    if (!dir) continue;
    for (const ext of exts) {
      try {
        if (Deno.statSync(`${dir}/${name}${ext}`).isFile) return true;
      } catch {
        // not in this directory
      }
    }
  }
  return false;
}

/**
 * How the platform shell runs `command`: `bash -c` (else `sh -c`) on Unix;
 * `pwsh` (else `powershell`) `-NoProfile -Command` on Windows, else
 * `cmd /d /s /c`. The choice is made once per process.
 */
export function shellInvocation(command: string): ShellInvocation {
  cachedShell ??= pickShell();
  return cachedShell(command);
}

function pickShell(): (command: string) => ShellInvocation {
  if (!IS_WINDOWS) {
    const sh = onPath("bash") ? "bash" : "sh";
    return (command) => ({ cmd: sh, args: ["-c", command] });
  }
  for (const ps of ["pwsh", "powershell"]) {
    if (onPath(ps)) {
      return (command) => ({
        cmd: ps,
        args: ["-NoProfile", "-NonInteractive", "-Command", command],
      });
    }
  }
  const cmd = Deno.env.get("ComSpec") ?? "cmd.exe";
  return (command) => ({ cmd, args: ["/d", "/s", "/c", `"${command}"`], rawArgs: true });
}

/**
 * The environment a command sees: this process's environment with the
 * session's overrides applied (`null` removes a variable).
 */
export function commandEnv(
  overrides: ReadonlyMap<string, string | null>,
): Record<string, string> {
  const env = Deno.env.toObject();
  for (const [name, value] of overrides) {
    if (value === null) delete env[name];
    else env[name] = value;
  }
  return withoutCredentials(env);
}

/** Where and with what environment a shell command runs. */
export interface SpawnOptions {
  cwd: string;
  /** The complete environment of the command. */
  env: Record<string, string>;
  /** Starts it confined by the OS sandbox (see `core/sandbox/`); absent or null = unconfined. */
  spawner?: CommandSpawner | null;
}

/**
 * Starts `command` through the platform shell in a process group of its own,
 * stdin closed, stdout and stderr piped. Throws when it cannot start (for
 * example a missing `cwd`).
 */
export function spawnShell(command: string, options: SpawnOptions): SpawnedProcess {
  const shell = shellInvocation(command);
  if (options.spawner) return options.spawner.spawn(shell.cmd, shell.args, options);
  return spawnPiped(shell.cmd, shell.args, {
    cwd: options.cwd,
    env: options.env,
    windowsRawArguments: shell.rawArgs,
  });
}

/**
 * Reads stdout and stderr at the same time and hands each decoded chunk to
 * `onText` in arrival order. Resolves when both streams end, or soon after
 * `stop` aborts (the pipes are let go: a process that escaped the group may
 * still hold them open).
 */
export async function pumpOutput(
  child: Pick<SpawnedProcess, "stdout" | "stderr">,
  onText: (text: string) => void,
  stop?: AbortSignal,
): Promise<void> {
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    const cancel = () => void reader.cancel().catch(() => {});
    stop?.addEventListener("abort", cancel, { once: true });
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        if (text) onText(text);
      }
    } catch {
      // the stream broke because the process was killed; nothing to add
    }
    stop?.removeEventListener("abort", cancel);
    const rest = decoder.decode();
    if (rest) onText(rest);
  };
  await Promise.all([pump(child.stdout), pump(child.stderr)]);
}

/** Sends `signal` to the process group `pid`; false when the group is gone. */
function signalGroup(pid: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops the process tree whose root is `pid`: SIGTERM to the group, up to
 * `graceMs` for it to go, then SIGKILL to whatever is left. Resolves false
 * when there was nothing left to stop. Never throws.
 */
export async function killTree(pid: number, graceMs = 1000): Promise<boolean> {
  if (IS_WINDOWS) return await taskkill(pid);
  if (!signalGroup(pid, "SIGTERM")) return false;
  signalGroup(pid, "SIGCONT");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    if (!signalGroup(pid, "SIGCONT")) return true;
  }
  signalGroup(pid, "SIGKILL");
  return true;
}

/**
 * The same as {@link killTree} without awaiting anything, for `unload` and
 * signal handlers: SIGTERM to every group, a blocking wait of at most
 * `graceMs`, then SIGKILL.
 */
export function killTreesNow(pids: readonly number[], graceMs = 300): void {
  if (IS_WINDOWS) {
    for (const pid of pids) {
      try {
        new Deno.Command("taskkill", { args: ["/pid", String(pid), "/T", "/F"] }).outputSync();
      } catch {
        // already gone
      }
    }
    return;
  }
  let left = pids.filter((pid) => signalGroup(pid, "SIGTERM"));
  const deadline = Date.now() + graceMs;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  while (left.length > 0 && Date.now() < deadline) {
    Atomics.wait(cell, 0, 0, 20);
    left = left.filter((pid) => signalGroup(pid, "SIGCONT"));
  }
  for (const pid of left) signalGroup(pid, "SIGKILL");
}

async function taskkill(pid: number): Promise<boolean> {
  try {
    const { success } = await new Deno.Command("taskkill", {
      args: ["/pid", String(pid), "/T", "/F"],
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}
