/**
 * How the operating system holds a skill script to its writable folders,
 * whatever the interpreter:
 *
 * - **Linux:** Landlock. The script starts through minoc's `__confine`
 *   helper (confine_main.ts), which confines itself and then becomes the
 *   interpreter, so the script and everything it starts can write only
 *   beneath `build/` (and `/dev/null`). Whether Landlock works is probed
 *   once per process, and the answer kept for this boot (probe_cache.ts).
 * - **macOS:** `sandbox-exec` with a profile that denies every write but
 *   those beneath the same folders.
 * - **Elsewhere** (Windows, Linux without Landlock): nothing; the runner
 *   then relies on each interpreter's own guard and refuses shell scripts
 *   unless the user allowed unconfined scripts.
 *
 * @example
 * ```ts
 * const c = await confinement();
 * if (c.kind !== "none") ({ program, args } = c.wrap(program, args, { dirs: [build], files: ["/dev/null"] }));
 * ```
 * @module
 */
import { fileURLToPath } from "node:url";
import type { Policy } from "./landlock.ts";
import { probeKey, rememberAbi, rememberedAbi } from "./probe_cache.ts";

/** A way to confine a process, or why there is none. */
export type Confinement =
  | {
    kind: "landlock" | "seatbelt";
    /** Shown to the user: `Landlock (ABI 7)`. */
    label: string;
    /** The process to start instead of `program args`. */
    wrap(program: string, args: readonly string[], policy: Policy): Started;
  }
  | { kind: "none"; reason: string };

/** A process to start. */
export interface Started {
  program: string;
  args: string[];
}

let probed: Promise<Confinement> | null = null;

/**
 * What confines scripts on this machine (probed once per process, the helper's
 * answer remembered for this boot: probe_cache.ts; `fresh` asks the helper
 * again, as `minoc doctor` does; `MINOC_NO_CONFINE=1` turns it off).
 */
export function confinement(o: { fresh?: boolean } = {}): Promise<Confinement> {
  if (Deno.env.get("MINOC_NO_CONFINE") === "1") {
    return Promise.resolve({ kind: "none", reason: "MINOC_NO_CONFINE=1 turned it off" });
  }
  if (o.fresh) return probed = probe(true);
  return probed ??= probe(false);
}

async function probe(fresh: boolean): Promise<Confinement> {
  if (Deno.build.os === "darwin") return await seatbelt();
  if (Deno.build.os !== "linux") {
    return { kind: "none", reason: `${Deno.build.os} has no sandbox minoc can use` };
  }
  const helper = helperCommand();
  // A remembered answer stands only where the helper could be started now.
  const runs = Deno.permissions.querySync({ name: "run", command: helper.program }).state;
  const key = runs === "granted" ? probeKey(helper) : null;
  const kept = key && !fresh ? rememberedAbi(key) : null;
  try {
    const abi = kept ?? await askHelper(helper);
    if (typeof abi === "string") return { kind: "none", reason: `Landlock cannot be used: ${abi}` };
    if (key && kept === null) rememberAbi(key, abi);
    return {
      kind: "landlock",
      label: `Landlock (ABI ${abi})`,
      wrap: (program, args, writable) => ({
        program: helper.program,
        args: [
          ...helper.args,
          ...writable.dirs.flatMap((d) => ["--write", d]),
          ...writable.files.flatMap((f) => ["--write-file", f]),
          ...(writable.noNetwork ? ["--no-network"] : []),
          "--",
          program,
          ...args,
        ],
      }),
    };
  } catch (e) {
    return { kind: "none", reason: `cannot start the sandbox helper: ${(e as Error).message}` };
  }
}

/** Runs `__confine --probe`: the Landlock ABI, or why it cannot be used. */
async function askHelper(helper: Started): Promise<number | string> {
  const out = await new Deno.Command(helper.program, {
    args: [...helper.args, "--probe"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const abi = /^landlock (\d+)/.exec(new TextDecoder().decode(out.stdout))?.[1];
  if (out.success && abi) return Number(abi);
  return new TextDecoder().decode(out.stderr).trim() || `exit ${out.code}`;
}

/**
 * How to start the `__confine` helper: the compiled binary itself; from
 * source, confine_entry.ts with FFI allowed; from the bundle, the bundle.
 */
export function helperCommand(): Started {
  if (Deno.build.standalone) return { program: Deno.execPath(), args: ["__confine"] };
  const flags = ["run", "--allow-ffi", "--no-prompt", "--no-config", "--quiet"];
  const here = import.meta.url;
  if (here.startsWith("file:") && here.endsWith("/core/sandbox/confine.ts")) {
    const entry = fileURLToPath(new URL("./confine_entry.ts", here));
    return { program: Deno.execPath(), args: [...flags, entry] };
  }
  // From the bundle's launcher (.ci/bundle.ts) this is an unpacked module; its entry is beside it.
  const entry = here.startsWith("file:") && here !== Deno.mainModule
    ? new URL("./main.js", here).href
    : Deno.mainModule;
  return {
    program: Deno.execPath(),
    args: [...flags, "--allow-env", "--allow-read", fileURLToPath(entry), "__confine"],
  };
}

/** macOS: `sandbox-exec -p <profile>`, when present. */
async function seatbelt(): Promise<Confinement> {
  const tool = "/usr/bin/sandbox-exec";
  if (!await Deno.stat(tool).then(() => true, () => false)) {
    return { kind: "none", reason: `${tool} is missing` };
  }
  const q = (p: string) => `"${p.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  return {
    kind: "seatbelt",
    label: "sandbox-exec",
    wrap: (program, args, writable) => {
      const allowed = [
        ...writable.dirs.map((d) => `(subpath ${q(d)})`),
        ...writable.files.map((f) => `(literal ${q(f)})`),
      ].join(" ");
      const net = writable.noNetwork
        ? "(deny network-outbound (remote ip))(deny network-bind)"
        : "";
      const profile =
        `(version 1)(allow default)(deny file-write*)(allow file-write* ${allowed})${net}`;
      return { program: tool, args: ["-p", profile, program, ...args] };
    },
  };
}
