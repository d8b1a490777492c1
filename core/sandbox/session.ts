/**
 * The sandbox of one session's commands: a private temp dir, a spawner per
 * policy (workspace-write, and read-only for plan mode), and how the session
 * stands (confined by what, off, or impossible here and why). Implements
 * the {@link CommandSandbox} port the exec tools get.
 *
 * @example
 * ```ts
 * const sandbox = await openSandbox({ mode: "workspace-write", cwd, home, settings: {}, readOnly: () => false });
 * ctx.sandbox = sandbox;
 * await sandbox.dispose();
 * ```
 * @module
 */
import type { CommandSandbox, CommandSpawner } from "../../interfaces/tool.ts";
import type { Policy } from "./landlock.ts";
import { commandPolicy, type SandboxMode, type SandboxSettings } from "./policy.ts";
import { refusedPaths } from "./refused.ts";
import { type DisposableSpawner, type SpawnerFactory, spawnerFactory } from "./spawner.ts";

/** How the session's commands are held. */
export type SandboxState =
  | { kind: "on"; label: string; notes: string[] }
  | { kind: "off" }
  | { kind: "none"; reason: string };

/** Options of {@link openSandbox}. */
export interface SandboxOptions {
  mode: SandboxMode;
  cwd: string;
  /** The user's home (for `~` in `sandbox.writable`). */
  home: string;
  settings: SandboxSettings;
  /** Whether commands run read-only now (plan mode). */
  readOnly(): boolean;
  /** The terminal's "run again without the sandbox" question; absent in `run`. */
  askEscalation?(command: string, paths: readonly string[]): Promise<boolean>;
}

/** A session's sandbox. */
export interface SessionSandbox extends CommandSandbox {
  readonly state: SandboxState;
  readonly mode: SandboxMode;
  /** The private temp dir (TMPDIR of confined commands). */
  readonly tmp: string;
  /** Stops the spawners and removes the temp dir. */
  dispose(): Promise<void>;
}

/** Opens the sandbox: probes the OS, makes the temp dir, starts the workspace spawner. */
export async function openSandbox(o: SandboxOptions): Promise<SessionSandbox> {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_cmd_" }));
  const places = { cwd: o.cwd, tmp, home: o.home, settings: o.settings };
  const made = new Map<"workspace-write" | "read-only", DisposableSpawner>();
  const notes: string[] = [];
  let writable: readonly string[] = [];
  let state: SandboxState = { kind: "off" };
  let readOnlyPolicy: Policy | null = null;
  let factory: SpawnerFactory | null = null;
  if (o.mode !== "off") {
    factory = await spawnerFactory();
    if (!factory.ok) state = { kind: "none", reason: factory.reason };
  }
  if (factory?.ok) {
    const noNetwork = o.settings.network === "off" && factory.network;
    if (o.settings.network === "off") {
      notes.push(
        noNetwork
          ? "network off: TCP connections and listening are refused (UDP and local sockets are not)"
          : `sandbox.network "off" is not enforced: ${factory.label} cannot refuse connections (Landlock ABI 4, Linux 6.7, is needed)`,
      );
    }
    const write = await commandPolicy("workspace-write", places);
    for (const m of write.missing) notes.push(`"${m}" in sandbox.writable does not exist`);
    writable = write.policy.dirs;
    readOnlyPolicy = { ...(await commandPolicy("read-only", places)).policy, noNetwork };
    const first = o.mode === "read-only" ? readOnlyPolicy : { ...write.policy, noNetwork };
    try {
      made.set(o.mode as "workspace-write" | "read-only", factory.make(first));
      state = { kind: "on", label: factory.label, notes };
    } catch (e) {
      state = { kind: "none", reason: (e as Error).message };
    }
  }
  const spawnerOf = (mode: "workspace-write" | "read-only"): CommandSpawner | null => {
    const ready = made.get(mode);
    if (ready) return withTmp(ready, tmp);
    if (mode !== "read-only" || !factory?.ok || !readOnlyPolicy) return null;
    made.set(mode, factory.make(readOnlyPolicy));
    return withTmp(made.get(mode)!, tmp);
  };
  return {
    get state() {
      return state;
    },
    mode: o.mode,
    tmp,
    spawner() {
      if (state.kind !== "on") return null;
      return spawnerOf(o.readOnly() ? "read-only" : o.mode as "workspace-write" | "read-only");
    },
    refusedPaths: (output, cwd, command) =>
      state.kind === "on"
        ? refusedPaths(
          output,
          cwd,
          o.readOnly() ? [tmp, "/dev/null"] : [...writable, "/dev/null"],
          command,
        )
        : [],
    escalate: (command, paths) =>
      o.askEscalation ? o.askEscalation(command, paths) : Promise.resolve(false),
    async dispose() {
      for (const s of made.values()) s.dispose();
      made.clear();
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    },
  };
}

/** Confined commands get the private temp dir as TMPDIR, TMP and TEMP. */
function withTmp(inner: CommandSpawner, tmp: string): CommandSpawner {
  return {
    spawn: (program, args, options) =>
      inner.spawn(program, args, {
        cwd: options.cwd,
        env: { ...options.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp },
      }),
  };
}
