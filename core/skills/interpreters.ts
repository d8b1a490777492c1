/**
 * Which interpreter runs a skill script, and how it is told to write only
 * under the project's `build/`. The operating system enforces that for all
 * of them where it can (Landlock, sandbox-exec: see confine.ts); each
 * interpreter's own guard below adds to it, and is all there is elsewhere:
 *
 * - `deno`: Deno's own permission flags (`--allow-read=<skill>,<project>`,
 *   `--allow-write=<project>/build`, `--allow-env` for the three MINOC_*
 *   folders only; no net, run or other env).
 * - `node`: Node's permission model (`--experimental-permission`, or
 *   `--permission` from Node 22.13): reads in the skill and the project,
 *   writes in `build/`, no child processes or workers.
 * - `python3`: an audit hook installed before the script refuses opening
 *   files for writing, removing, renaming and creating folders outside
 *   `build/`, and starting processes. It stops ordinary code, not code that
 *   is written to get around it (e.g. through ctypes).
 * - `bash`, `sh`: no guard of their own, so they run only under the OS
 *   sandbox, or with `allowUnconfinedScripts`, when the runner's check
 *   after the run removes files created in the project and the skill folder
 *   and reports the changed ones.
 *
 * @module
 */
import { basename, extname, join } from "node:path";

/** The interpreters skill scripts may use. */
export const INTERPRETERS = ["python3", "node", "deno", "bash", "sh"] as const;

/** One allowed interpreter. */
export type Interpreter = typeof INTERPRETERS[number];

/** The folders a script run is confined to. */
export interface SandboxDirs {
  skill: string;
  project: string;
  build: string;
}

/** The process to start, and the command line shown to the gates and the user. */
export interface Invocation {
  program: string;
  args: string[];
  display: string;
}

const BY_EXTENSION: Record<string, Interpreter> = {
  ".py": "python3",
  ".js": "node",
  ".mjs": "node",
  ".cjs": "node",
  ".ts": "deno",
  ".mts": "deno",
  ".sh": "bash",
};

/** The interpreter for a script from its `#!` line, else its extension; or why none is allowed. */
export function pickInterpreter(
  path: string,
  firstLine: string,
): { ok: true; interpreter: Interpreter } | { ok: false; message: string } {
  let name: string | undefined;
  const shebang = /^#!\s*(\S+)(?:\s+(.*))?$/.exec(firstLine.trim());
  if (shebang) {
    name = basename(shebang[1]);
    if (name === "env") {
      const words = (shebang[2] ?? "").split(/\s+/).filter((w) => w !== "" && !w.startsWith("-"));
      name = words[0];
    }
  } else {
    name = BY_EXTENSION[extname(path).toLowerCase()];
  }
  if (name !== undefined && (INTERPRETERS as readonly string[]).includes(name)) {
    return { ok: true, interpreter: name as Interpreter };
  }
  const what = name === undefined
    ? `no interpreter is known for "${basename(path)}"`
    : `the interpreter "${name}" is not allowed`;
  return {
    ok: false,
    message: `${what}: skill scripts run with ${INTERPRETERS.join(", ")} ` +
      `(by their #! line or a .py, .js, .mjs, .cjs, .ts or .sh name)`,
  };
}

/** Builds the process for `interpreter` running `script` (absolute) with `args`. */
export function invocation(
  interpreter: Interpreter,
  script: string,
  shown: string,
  args: readonly string[],
  dirs: SandboxDirs,
  nodeMajorMinor: [number, number] = [20, 0],
): Invocation {
  const tail = [shown, ...args].map(quote).join(" ");
  switch (interpreter) {
    case "deno": {
      const flags = [
        "--no-prompt",
        "--no-config",
        `--allow-read=${dirs.skill},${dirs.project}`,
        `--allow-write=${dirs.build}`,
        "--allow-env=MINOC_SKILL_DIR,MINOC_PROJECT_DIR,MINOC_BUILD_DIR",
      ];
      return {
        program: denoProgram(),
        args: ["run", ...flags, script, ...args],
        display: `deno run ${flags.map(quote).join(" ")} ${tail}`,
      };
    }
    case "node": {
      const modern = nodeMajorMinor[0] > 22 ||
        (nodeMajorMinor[0] === 22 && nodeMajorMinor[1] >= 13);
      const flags = modern
        ? [
          "--permission",
          `--allow-fs-read=${dirs.skill}`,
          `--allow-fs-read=${dirs.project}`,
          `--allow-fs-write=${dirs.build}`,
        ]
        : [
          "--experimental-permission",
          `--allow-fs-read=${dirs.skill}/*`,
          `--allow-fs-read=${dirs.project}/*`,
          `--allow-fs-write=${dirs.build}/*`,
          "--no-warnings",
        ];
      return { program: "node", args: [...flags, script, ...args], display: `node ${tail}` };
    }
    case "python3":
      return {
        program: "python3",
        args: ["-B", "-c", PYTHON_GUARD, script, ...args],
        display: `python3 ${tail}`,
      };
    default:
      return { program: interpreter, args: [script, ...args], display: `${interpreter} ${tail}` };
  }
}

/**
 * Folders the interpreter itself (never the script) writes to, which the OS
 * sandbox must leave writable: Deno's module cache, so `npm:` and remote
 * imports can be fetched (the script is still held to `build/` by Deno's
 * own flags). Created when missing.
 */
export async function runtimeWritable(interpreter: Interpreter): Promise<string[]> {
  if (interpreter !== "deno") return [];
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "";
  const dir = Deno.env.get("DENO_DIR") ??
    (Deno.build.os === "darwin"
      ? join(home, "Library", "Caches", "deno")
      : Deno.build.os === "windows"
      ? join(Deno.env.get("LOCALAPPDATA") ?? home, "deno")
      : join(Deno.env.get("XDG_CACHE_HOME") ?? join(home, ".cache"), "deno"));
  try {
    await Deno.mkdir(dir, { recursive: true });
    return [await Deno.realPath(dir)];
  } catch {
    return [];
  }
}

/** The deno binary: this one when minoc runs from source, else `deno` on the PATH. */
function denoProgram(): string {
  return Deno.build.standalone ? "deno" : Deno.execPath();
}

/** Quotes a word for display when it needs it. */
export function quote(word: string): string {
  if (word !== "" && /^[A-Za-z0-9_\-./:=@,+%]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Runs `sys.argv[1]` as `__main__` with an audit hook that keeps writes inside MINOC_BUILD_DIR. */
export const PYTHON_GUARD = `
import os, sys
_B = os.path.realpath(os.environ["MINOC_BUILD_DIR"])
_W = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
def _in(p):
    try:
        p = os.path.realpath(os.fsdecode(p))
    except Exception:
        return False
    return p == _B or p.startswith(_B + os.sep)
def _deny(what):
    raise PermissionError("minoc sandbox: " + what + " is refused: scripts write only under build/")
def _hook(event, args):
    if event == "open":
        path, mode, flags = args
        if path is None or isinstance(path, int):
            return
        writing = (mode is not None and any(c in str(mode) for c in "wax+")) or (flags & _W)
        if writing and not _in(path):
            _deny("writing " + os.fsdecode(path))
    elif event in ("os.remove", "os.rmdir", "os.mkdir", "os.chmod", "os.truncate", "os.utime", "os.chown"):
        if not isinstance(args[0], int) and not _in(args[0]):
            _deny(event + " " + os.fsdecode(args[0]))
    elif event in ("os.rename", "os.link", "os.symlink", "shutil.copyfile", "shutil.move"):
        for p in args[:2]:
            if not isinstance(p, int) and not _in(p):
                _deny(event + " " + os.fsdecode(p))
    elif event in ("os.system", "subprocess.Popen", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty"):
        _deny("starting a process (" + event + ")")
sys.dont_write_bytecode = True
sys.addaudithook(_hook)
_script = sys.argv[1]
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(os.path.abspath(_script)))
import runpy
runpy.run_path(_script, run_name="__main__")
`;
