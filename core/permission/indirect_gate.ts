/**
 * Indirect routes by which a harmless-looking call runs code the user never
 * saw; the security gate runs these checks after its own (their verdicts
 * carry its name).
 *
 * - `set_env` of a variable that makes shells, the loader or a tool run code
 *   (`BASH_ENV`, `LD_PRELOAD`, `PATH`, `NODE_OPTIONS`, `GIT_SSH_COMMAND` …)
 *   asks with the reason, and `--yes` does not approve it.
 * - A command that names a file written earlier in this session
 *   (`bash cleanup.sh`, `./x.sh`, `python x.py`), or that runs the tasks of
 *   a task file written in this session (`npm test` after package.json,
 *   `make` after Makefile), asks and shows the file's content.
 *
 * @example
 * ```ts
 * const gate = indirectGate({ read: (p) => Deno.readTextFile(p) });
 * ```
 * @module
 */
import { basename, isAbsolute, resolve } from "node:path";
import type { Gate, GateInput, Verdict } from "../../interfaces/tool.ts";
import { codeRunningVariable } from "./env_danger.ts";

/** How much of a script the reason shows. */
const MAX_LINES = 60;
const MAX_CHARS = 4000;

/** Task files and the programs that run what they define. */
const TASK_FILES: Record<string, RegExp> = {
  "package.json": /^(npm|pnpm|yarn|bun|npx)$/,
  "deno.json": /^deno$/,
  "deno.jsonc": /^deno$/,
  "makefile": /^(make|gmake)$/,
  "gnumakefile": /^(make|gmake)$/,
  "justfile": /^just$/,
  "taskfile.yml": /^task$/,
  "pyproject.toml": /^(uv|poetry|pdm|hatch|pip|python3?)$/,
  "cargo.toml": /^cargo$/,
  "build.rs": /^cargo$/,
  "setup.py": /^(pip3?|python3?)$/,
};

/** What the gate needs. */
export interface IndirectOptions {
  /** Reads a file as the tools see it (the dry-run overlay included). */
  read(path: string): Promise<string>;
}

/** Creates the checks; they remember the files write tools were asked to change. */
export function indirectGate(options: IndirectOptions): Gate {
  const written = new Set<string>();
  return {
    name: "indirect",
    async check(input: GateInput): Promise<Verdict> {
      if (input.call.tool === "set_env") return checkSetEnv(input);
      remember(input, written);
      if (input.preview.kind !== "exec" || written.size === 0) return pass();
      const files = namedFiles(input.preview.command, input.preview.cwd || input.cwd, written);
      if (files.length === 0) return pass();
      const shown = await Promise.all(files.map((f) => showFile(f, options.read)));
      return {
        gate: "security",
        action: "ask",
        risk: "high",
        rule: "runs a file written in this session",
        reason:
          `the command runs ${files.length === 1 ? "a file" : "files"} written in this session:` +
          `\n${shown.join("\n")}`,
      };
    },
  };
}

function pass(): Verdict {
  return { gate: "security", action: "pass" };
}

function checkSetEnv(input: GateInput): Verdict {
  const args = (input.args ?? {}) as { name?: unknown };
  const name = typeof args.name === "string" ? args.name : String(input.call.params.name ?? "");
  const why = codeRunningVariable(name);
  if (why === null) return pass();
  return {
    gate: "security",
    action: "ask",
    firm: true,
    risk: "high",
    rule: "code-running variable",
    reason: `setting ${name} lets later commands run code: ${why}`,
  };
}

function remember(input: GateInput, written: Set<string>): void {
  if (input.tool.kind !== "write") return;
  const p = input.preview;
  if (p.kind === "edit" && p.after !== null) written.add(resolve(input.cwd, p.path));
  if (p.kind === "multi_edit") {
    for (const f of p.files) if (f.after !== null) written.add(resolve(input.cwd, f.path));
  }
}

/** Files of `written` the command names, or whose tasks it runs. */
function namedFiles(command: string, cwd: string, written: ReadonlySet<string>): string[] {
  const tokens = command.split(/[\s;&|()<>`"'$=]+/).filter((t) => t !== "");
  const programs = new Set(tokens.map((t) => basename(t).toLowerCase()));
  const out = new Set<string>();
  for (const t of tokens) {
    const abs = isAbsolute(t)
      ? t
      : resolve(cwd, t.replace(/^~(?=\/)/, Deno.env.get("HOME") ?? "~"));
    if (written.has(abs)) out.add(abs);
  }
  for (const path of written) {
    const runner = TASK_FILES[basename(path).toLowerCase()];
    if (runner && [...programs].some((p) => runner.test(p)) && path.startsWith(cwd)) out.add(path);
  }
  return [...out];
}

async function showFile(path: string, read: IndirectOptions["read"]): Promise<string> {
  let text: string;
  try {
    text = await read(path);
  } catch (e) {
    return `  ${path}: cannot be read (${(e as Error).message})`;
  }
  const lines = text.split("\n");
  let body = lines.slice(0, MAX_LINES).join("\n");
  if (body.length > MAX_CHARS) body = body.slice(0, MAX_CHARS);
  const cut = body.length < text.trimEnd().length ? `\n  … (${lines.length} lines in all)` : "";
  return `  ── ${path} ──\n${body.split("\n").map((l) => `  │ ${l}`).join("\n")}${cut}`;
}
