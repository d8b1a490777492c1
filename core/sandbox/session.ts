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
import { confinedSpawner, type SpawnerResult } from "./spawner.ts";

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
  const spawners = new Map<"workspace-write" | "read-only", Promise<SpawnerResult>>();
  const writable: string[] = [];
  const notes: string[] = [];
  const make = (mode: "workspace-write" | "read-only") => {
    let s = spawners.get(mode);
    if (!s) {
      s = commandPolicy(mode, places).then(({ policy, missing }) => {
        if (mode === "workspace-write") {
          writable.push(...policy.dirs);
          for (const m of missing) notes.push(`"${m}" in sandbox.writable does not exist`);
        }
        return spawnerFor(policy, notes);
      });
      spawners.set(mode, s);
    }
    return s;
  };
  let state: SandboxState = { kind: "off" };
  const ready = new Map<string, CommandSpawner>();
  if (o.mode !== "off") {
    const first = await make(o.mode);
    if (first.ok) {
      ready.set(o.mode, withTmp(first.spawner, tmp));
      state = { kind: "on", label: first.label, notes };
    } else {
      state = { kind: "none", reason: first.reason };
    }
  }
  if (state.kind === "on" && o.mode === "workspace-write") {
    const ro = await make("read-only");
    if (ro.ok) ready.set("read-only", withTmp(ro.spawner, tmp));
  }
  if (
    state.kind === "on" && o.settings.network === "off" && notes.every((n) => !/network/.test(n))
  ) {
    notes.push(
      "network off: TCP connections and listening are refused (UDP and local sockets are not)",
    );
  }
  return {
    get state() {
      return state;
    },
    mode: o.mode,
    tmp,
    spawner() {
      if (state.kind !== "on") return null;
      const mode = o.readOnly() ? "read-only" : o.mode;
      return ready.get(mode) ?? null;
    },
    refusedPaths: (output, cwd) =>
      state.kind === "on" ? refusedPaths(output, cwd, o.readOnly() ? [tmp] : writable) : [],
    escalate: (command, paths) =>
      o.askEscalation ? o.askEscalation(command, paths) : Promise.resolve(false),
    async dispose() {
      for (const s of spawners.values()) {
        const r = await s;
        if (r.ok) r.spawner.dispose();
      }
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

/** A spawner for `policy`; where the kernel cannot refuse the network, one for writes only (noted). */
async function spawnerFor(policy: Policy, notes: string[]): Promise<SpawnerResult> {
  const first = await confinedSpawner(policy);
  if (first.ok || !policy.noNetwork || !/network/.test(first.reason)) return first;
  const note = `sandbox.network "off" is not enforced: ${first.reason}`;
  if (!notes.includes(note)) notes.push(note);
  return await confinedSpawner({ ...policy, noNetwork: false });
}
