/**
 * The sandbox of one session's commands: a private temp dir, a spawner per
 * policy (workspace-write, and read-only for plan mode), and how the session
 * stands (confined by what, off, or impossible here and why). Implements
 * the {@link CommandSandbox} port the exec tools get.
 *
 * @example
 * ```ts
 * const sandbox = openSandbox({ mode: "workspace-write", cwd, home, settings: {}, readOnly: () => false });
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
  readonly mode: SandboxMode;
  /** How commands are held; the OS is probed once, in the background, from the open on. */
  state(): Promise<SandboxState>;
  /** The private temp dir (TMPDIR of confined commands), once known. */
  tmp(): Promise<string>;
  /** Stops the spawners and removes the temp dir. */
  dispose(): Promise<void>;
}

type Strict = "workspace-write" | "read-only";

interface Setup {
  state: SandboxState;
  tmp: string;
  writable: readonly string[];
  policies: Map<Strict, Policy>;
  factory: SpawnerFactory | null;
}

/**
 * Opens the sandbox without waiting: the OS is probed and the temp dir made
 * in the background (a session starts no slower); each spawner is made when
 * its first command runs.
 */
export function openSandbox(o: SandboxOptions): SessionSandbox {
  const setup = prepare(o);
  const made = new Map<Strict, DisposableSpawner>();
  const spawnerOf = (s: Setup, mode: Strict): CommandSpawner | null => {
    let spawner = made.get(mode);
    if (!spawner && s.factory?.ok) {
      try {
        spawner = s.factory.make(s.policies.get(mode)!);
        made.set(mode, spawner);
      } catch (e) {
        const reason = `the sandbox could not be applied: ${(e as Error).message}`;
        s.state = { kind: "none", reason };
        throw new Error(reason);
      }
    }
    return spawner ? withTmp(spawner, s.tmp) : null;
  };
  const strict = (): Strict =>
    o.readOnly() ? "read-only" : o.mode === "read-only" ? "read-only" : "workspace-write";
  return {
    mode: o.mode,
    state: async () => (await setup).state,
    tmp: async () => (await setup).tmp,
    async spawner() {
      const s = await setup;
      return s.state.kind === "on" ? spawnerOf(s, strict()) : null;
    },
    async refusedPaths(output, cwd, command) {
      const s = await setup;
      if (s.state.kind !== "on") return [];
      const writable = strict() === "read-only" ? [s.tmp] : s.writable;
      return refusedPaths(output, cwd, [...writable, "/dev/null"], command);
    },
    escalate: (command, paths) =>
      o.askEscalation ? o.askEscalation(command, paths) : Promise.resolve(false),
    async dispose() {
      const s = await setup;
      for (const spawner of made.values()) spawner.dispose();
      made.clear();
      if (s.tmp) await Deno.remove(s.tmp, { recursive: true }).catch(() => {});
    },
  };
}

/** {@link probe}, which never rejects: a failure leaves commands unconfined, and says why. */
async function prepare(o: SandboxOptions): Promise<Setup> {
  try {
    return await probe(o);
  } catch (e) {
    const reason = `the sandbox could not be set up: ${(e as Error).message}`;
    return {
      state: o.mode === "off" ? { kind: "off" } : { kind: "none", reason },
      tmp: "",
      writable: [],
      policies: new Map(),
      factory: null,
    };
  }
}

/** Probes the OS, makes the temp dir and works out both policies. */
async function probe(o: SandboxOptions): Promise<Setup> {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_cmd_" }));
  const setup: Setup = {
    state: { kind: "off" },
    tmp,
    writable: [],
    policies: new Map(),
    factory: null,
  };
  if (o.mode === "off") return setup;
  const factory = await spawnerFactory();
  if (!factory.ok) {
    setup.state = { kind: "none", reason: factory.reason };
    return setup;
  }
  const notes: string[] = [];
  const noNetwork = o.settings.network === "off" && factory.network;
  if (o.settings.network === "off") {
    notes.push(
      noNetwork
        ? "network off: TCP connections and listening are refused (UDP and local sockets are not)"
        : `sandbox.network "off" is not enforced: ${factory.label} cannot refuse connections ` +
          "(Landlock ABI 4, Linux 6.7, is needed)",
    );
  }
  const places = { cwd: o.cwd, tmp, home: o.home, settings: o.settings };
  const write = await commandPolicy("workspace-write", places);
  for (const m of write.missing) notes.push(`"${m}" in sandbox.writable does not exist`);
  const read = await commandPolicy("read-only", places);
  setup.policies.set("workspace-write", { ...write.policy, noNetwork });
  setup.policies.set("read-only", { ...read.policy, noNetwork });
  setup.writable = write.policy.dirs;
  setup.factory = factory;
  setup.state = { kind: "on", label: factory.label, notes };
  return setup;
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
