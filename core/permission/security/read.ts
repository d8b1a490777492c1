/**
 * Reads a whole command line in its shell into segments and findings,
 * following nested code into any dialect up to {@link MAX_DEPTH} levels.
 *
 * @module
 */
import { readBash } from "./bash_reader.ts";
import { readCmd } from "./cmd_reader.ts";
import { addFinding, MAX_DEPTH, type ReadContext } from "./context.ts";
import { readPowerShell } from "./powershell_reader.ts";
import { spawnLoop } from "./loops.ts";
import { bashParser } from "./tree_sitter.ts";
import type { Finding, RuleContext, Segment, ShellKind, Source } from "./types.ts";

/**
 * Every command `command` would run, as segments, plus structural findings.
 *
 * @example
 * ```ts
 * const { segments } = await readCommand("bash -c 'sudo id'", "bash", { cwd: "/p", home: "/home/me" });
 * segments.map((s) => s.name); // ["bash", "sudo"]
 * ```
 */
export async function readCommand(
  command: string,
  shell: ShellKind,
  rules: RuleContext,
): Promise<{ segments: Segment[]; findings: Finding[] }> {
  const parser = await bashParser();
  const rc: ReadContext = {
    rules,
    cwd: rules.cwd,
    vars: new Map(),
    taint: new Map(),
    depth: 0,
    segments: [],
    findings: [],
    read(text, dialect, opts = {}) {
      if (rc.depth >= MAX_DEPTH) {
        addFinding(rc, "too-deep", `Code is nested more than ${MAX_DEPTH} levels deep`, text);
        return { kind: "program", detail: text };
      }
      const saved = rc.vars;
      if (!opts.sameScope) rc.vars = new Map(saved);
      rc.depth++;
      try {
        return dispatch(text, dialect);
      } finally {
        rc.depth--;
        rc.vars = saved;
      }
    },
  };
  const dispatch = (text: string, dialect: ShellKind): Source => {
    const loop = spawnLoop(text, dialect);
    if (loop) addFinding(rc, "fork-bomb", loop, text);
    if (dialect === "bash") return readBash(parser, text, rc);
    if (dialect === "powershell") return readPowerShell(text, rc);
    return readCmd(text, rc);
  };
  dispatch(command, shell);
  return { segments: rc.segments, findings: rc.findings };
}
