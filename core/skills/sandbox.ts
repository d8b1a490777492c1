/**
 * Runs one skill script in the sandbox: an allowed interpreter, the skill's
 * folder as working directory, a small environment, writes only under the
 * project's `build/` (the operating system holds every interpreter to it
 * where it can, see confine.ts; each interpreter's own guard adds to that,
 * see interpreters.ts; snapshots around every run catch the rest), a private
 * scratch folder as TMPDIR that is removed afterwards, a timeout, a stdout
 * cap, a cap on files produced, and one script at a time. Only the JSON
 * summary the script prints (`status`, `artifacts`, `warnings`) and the
 * list of files it produced reach the model — never its source.
 *
 * @example
 * ```ts
 * const r = await runSandboxed({ script: "/p/skills/deck/scripts/make.py", shown: "scripts/make.py",
 *   args: ["--title", "Q3"], dirs: { skill, project, build }, signal });
 * ```
 * @module
 */
import { relative } from "node:path";
import { killTree } from "../tools/shell.ts";
import { confinement } from "../sandbox/confine.ts";
import { scriptEnv } from "./script_env.ts";
import { type Interpreter, invocation, runtimeWritable, type SandboxDirs } from "./interpreters.ts";
import { diffSnapshots, snapshot, type SnapshotDiff, undoCreated } from "./snapshot.ts";

/** The limits of a script run. */
export interface SandboxLimits {
  timeoutMs: number;
  /** Bytes of stdout kept; more stops the script. */
  maxStdout: number;
  /** Files a run may produce under build/. */
  maxFiles: number;
}

/** Default limits: 60 s, 64 KB of stdout, 200 files. */
export const DEFAULT_LIMITS: SandboxLimits = {
  timeoutMs: 60_000,
  maxStdout: 65_536,
  maxFiles: 200,
};

/** One script run. */
export interface SandboxRun {
  interpreter: Interpreter;
  /** Absolute path of the script. */
  script: string;
  /** How the script is named to the user (`scripts/make.py`). */
  shown: string;
  args: readonly string[];
  dirs: SandboxDirs;
  signal: AbortSignal;
  limits?: Partial<SandboxLimits>;
  /** Absolute paths the outside-write check does not look at (e.g. the `.minoc` home). */
  ignore?: readonly string[];
  /** Run bash/sh scripts even where the operating system cannot confine them. */
  allowUnconfined?: boolean;
}

/** How a run ended. */
export interface SandboxOutcome {
  ending:
    | "exited"
    | "timeout"
    | "cancelled"
    | "stdout_cap"
    | "busy"
    | "spawn_failed"
    | "unconfined";
  exitCode: number | null;
  stdout: string;
  /** The last 2,000 characters of stderr (for the user only). */
  stderrTail: string;
  /** Files created or changed under build/ (absolute). */
  produced: string[];
  /** Files created outside build/ and removed again. */
  removed: string[];
  /** Files changed outside build/ (not undone). */
  changedOutside: string[];
  /** What confined the script (`Landlock (ABI 7)`), or null when nothing did. */
  confinedBy: string | null;
  ms: number;
  message?: string;
}

let running = false;
let nodeVersion: Promise<[number, number]> | null = null;

/** Runs the script; never throws. A second run while one is going is refused (`busy`). */
export async function runSandboxed(run: SandboxRun): Promise<SandboxOutcome> {
  const started = performance.now();
  const base = {
    exitCode: null,
    stdout: "",
    stderrTail: "",
    produced: [],
    removed: [],
    changedOutside: [],
    confinedBy: null,
  };
  if (running) {
    return { ...base, ending: "busy", ms: 0, message: "another skill script is still running" };
  }
  running = true;
  let scratch: string | undefined;
  try {
    const limits = { ...DEFAULT_LIMITS, ...run.limits };
    const confine = await confinement();
    const shell = run.interpreter === "bash" || run.interpreter === "sh";
    if (confine.kind === "none" && shell && !run.allowUnconfined) {
      return {
        ...base,
        ending: "unconfined",
        ms: performance.now() - started,
        message: `${run.interpreter} scripts run only where the operating system can confine ` +
          `their writes to build/, and here ${confine.reason}. To run them anyway, with only ` +
          `the check after the run, set "allowUnconfinedScripts": true in settings.json`,
      };
    }
    await Deno.mkdir(run.dirs.build, { recursive: true });
    scratch = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_skill_" }));
    const watch = await watchAreas(run);
    const before = await Promise.all(watch.map((w) => snapshot(w.root, { skip: w.skip })));
    const node = run.interpreter === "node" ? await (nodeVersion ??= readNodeVersion()) : undefined;
    const inv = invocation(run.interpreter, run.script, run.shown, run.args, run.dirs, node);
    const proc = confine.kind === "none" ? inv : confine.wrap(inv.program, inv.args, {
      dirs: [
        await Deno.realPath(run.dirs.build),
        scratch,
        ...await runtimeWritable(run.interpreter),
      ],
      files: Deno.build.os === "windows" ? [] : ["/dev/null"],
    });
    const done = await spawnAndWait(proc.program, proc.args, run, limits, scratch);
    const after = await Promise.all(watch.map((w) => snapshot(w.root, { skip: w.skip })));
    const diffs = watch.map((w, i) => ({
      build: w.build,
      diff: diffSnapshots(before[i], after[i]),
    }));
    const produced = diffs.filter((d) => d.build).flatMap((
      d,
    ) => [...d.diff.created, ...d.diff.modified]);
    const outside = diffs.filter((d) => !d.build).map((d) => d.diff);
    const removed: string[] = [];
    for (const d of outside) removed.push(...await undoCreated(d));
    return {
      ...done,
      produced: produced.sort(),
      removed,
      changedOutside: outside.flatMap((d: SnapshotDiff) => d.modified),
      confinedBy: confine.kind === "none" ? null : confine.label,
      ms: performance.now() - started,
    };
  } catch (e) {
    return {
      ...base,
      ending: "spawn_failed",
      ms: performance.now() - started,
      message: (e as Error).message,
    };
  } finally {
    running = false;
    if (scratch) await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}

/** build/ (to list what was produced), the project minus build/, and the skill folder when it is elsewhere. */
async function watchAreas(run: SandboxRun) {
  const { project, build, skill } = run.dirs;
  const ignore = [...(run.ignore ?? [])];
  const areas = [
    { root: build, skip: [] as string[], build: true },
    { root: project, skip: [build, ...ignore], build: false },
  ];
  if (relative(project, skill).startsWith("..")) {
    areas.push({ root: skill, skip: ignore, build: false });
  }
  return await Promise.resolve(areas);
}

type Ended = Pick<SandboxOutcome, "ending" | "exitCode" | "stdout" | "stderrTail" | "message">;

async function spawnAndWait(
  program: string,
  args: string[],
  run: SandboxRun,
  limits: SandboxLimits,
  scratch: string,
): Promise<Ended> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      cwd: run.dirs.skill,
      env: { ...scriptEnv(run.dirs), TMPDIR: scratch, TMP: scratch, TEMP: scratch },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: Deno.build.os !== "windows",
    }).spawn();
  } catch (e) {
    return {
      ending: "spawn_failed",
      exitCode: null,
      stdout: "",
      stderrTail: "",
      message: `cannot start ${program}: ${(e as Error).message}`,
    };
  }
  let ending: Ended["ending"] = "exited";
  const stop = (why: Ended["ending"]) => {
    if (ending === "exited") ending = why;
    void killTree(child.pid, 500);
  };
  const timer = setTimeout(() => stop("timeout"), limits.timeoutMs);
  const onAbort = () => stop("cancelled");
  run.signal.addEventListener("abort", onAbort);
  if (run.signal.aborted) onAbort();
  const [stdout, stderr, status] = await Promise.all([
    readCapped(child.stdout, limits.maxStdout, () => stop("stdout_cap")),
    readCapped(child.stderr, 1_000_000, () => {}),
    child.status,
  ]);
  clearTimeout(timer);
  run.signal.removeEventListener("abort", onAbort);
  if (ending === "exited") void killTree(child.pid, 100); // children it left behind
  return { ending, exitCode: status.code, stdout, stderrTail: stderr.slice(-2000) };
}

/** Reads a stream as text, keeping at most `max` bytes and calling `over` once past it. */
async function readCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
  over: () => void,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let told = false;
  try {
    for await (const chunk of stream) {
      if (size < max) chunks.push(chunk.subarray(0, max - size));
      size += chunk.length;
      if (size > max && !told) {
        told = true;
        over();
      }
    }
  } catch {
    // the process was stopped; keep what arrived
  }
  const all = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all);
}

async function readNodeVersion(): Promise<[number, number]> {
  try {
    const out = await new Deno.Command("node", {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
    })
      .output();
    const m = /v(\d+)\.(\d+)/.exec(new TextDecoder().decode(out.stdout));
    return m ? [Number(m[1]), Number(m[2])] : [20, 0];
  } catch {
    return [20, 0];
  }
}
