/**
 * The state shared by the shell readers while one command line is read:
 * where the segments and findings go, the literal variables seen so far, and
 * how to read nested code in any dialect.
 *
 * @module
 */
import type { Finding, RuleContext, Segment, ShellKind, Source } from "./types.ts";

/** How deep nested code (`bash -c "eval '…'"`) is followed before it is a warning. */
export const MAX_DEPTH = 8;

/** The reading state of one command line. */
export interface ReadContext {
  rules: RuleContext;
  /** The working directory as changed by `cd` so far; `""` when unknown. */
  cwd: string;
  /** Literal variables assigned earlier in the line (lower-case names for cmd and PowerShell). */
  vars: Map<string, string>;
  /** Origins of variables assigned unknown values (`X=$(curl …)`). */
  taint: Map<string, Source>;
  depth: number;
  segments: Segment[];
  findings: Finding[];
  /**
   * Reads nested code in `shell`, one level deeper, and returns what it
   * writes to standard output. `sameScope` keeps the variables (for `eval`).
   */
  read(
    text: string,
    shell: ShellKind,
    opts?: { sameScope?: boolean },
  ): Source;
}

/** Adds a finding of a structural rule (parse error, nesting, fork bomb). */
export function addFinding(rc: ReadContext, rule: string, reason: string, segment: string): void {
  rc.findings.push({ rule, reason, segment: segment.trim().slice(0, 400) });
}
