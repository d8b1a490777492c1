/**
 * Shared types of the security gate: what the shell readers produce
 * (segments), what a rule looks at, and what the gate answers.
 *
 * @module
 */

/** The shell dialect a command is written in. */
export type ShellKind = "bash" | "powershell" | "cmd";

/** All shell dialects, in a stable order. */
export const SHELLS: readonly ShellKind[] = ["bash", "powershell", "cmd"];

/** How dangerous a verdict is: block is critical, warn high or medium, allow low. */
export type Risk = "critical" | "high" | "medium" | "low";

/** The answer of the security check for one whole command line. */
export type SecurityVerdict = {
  verdict: "block" | "warn" | "allow";
  /** The rule id that decided; `""` for allow. */
  rule: string;
  risk: Risk;
  reason: string;
  /** The offending command segment; `""` for allow. */
  segment: string;
};

/**
 * Where text comes from when it is used as code or input: known literal text,
 * or an origin that is only known at run time.
 */
export type Source =
  | { kind: "literal"; text: string; shell: ShellKind }
  | {
    kind: "network" | "decoded" | "program" | "variable" | "file";
    detail: string;
    /** Paths a listing command writes (`Get-ChildItem C:\x | Remove-Item`). */
    paths?: Word[];
  };

/** One argument of a command after unquoting and variable substitution. */
export interface Word {
  /** The value; parts unknown before run time keep their written form. */
  text: string;
  /** True when every part of the value is known now. */
  literal: boolean;
  /** Origins of the parts that are not literal (command substitutions, variables). */
  sources: Source[];
}

/** A variable set for one command (`NAME=value cmd`, `env NAME=value cmd`). */
export interface EnvAssignment {
  name: string;
  value: Word;
}

/** A command as written, before prefixes are skipped and names normalised. */
export interface RawCommand {
  shell: ShellKind;
  words: Word[];
  /** Source text of the command, for reports. */
  text: string;
  /** Targets of output redirections (`>`, `>>`, `Out-File`-like writes). */
  writes: Word[];
  /** What the command reads on standard input, if known. */
  stdin: Source | null;
  /** Files given to input redirections (`< file`), also when only known at run time. */
  reads?: Word[];
  /** Source text of the pipeline the command belongs to. */
  pipeline?: string;
  /** Variables set for this command alone. */
  env?: EnvAssignment[];
}

/** One simple command that will run, the unit every rule judges. */
export interface Segment {
  shell: ShellKind;
  /** Normalised command word: lower case, no directory, no `.exe`, aliases resolved. */
  name: string;
  /** The command word after unquoting, before normalisation. */
  rawName: string;
  args: Word[];
  text: string;
  writes: Word[];
  stdin: Source | null;
  /** Files given to input redirections (`< file`). */
  reads?: Word[];
  pipeline: string;
  /** Code this command runs whose text is not known now (`sh -c "$X"`, `curl … | sh`). */
  code?: Source;
  /** The command word itself is computed at run time. */
  dynamic?: boolean;
  /** Working directory when the segment runs (after `cd`); `""` when unknown. */
  cwd?: string;
  /** Variables set for this command alone (`NAME=value cmd`, `env NAME=value cmd`). */
  env?: EnvAssignment[];
}

/** What rules may know besides the segment. */
export interface RuleContext {
  /** Absolute directory relative paths resolve against (after `cd`); `""` when unknown. */
  cwd: string;
  /** The project's working directory, when `cwd` moved away from it; deletes inside it are allowed. */
  project?: string;
  /** Absolute home directory of the user. */
  home: string;
}

/** A built-in or custom rule. */
export interface Rule {
  id: string;
  verdict: "block" | "warn";
  risk: Exclude<Risk, "low">;
  description: string;
  /** True for rules from the user's security.json. */
  custom?: boolean;
  /** The reason when `seg` matches, else null. */
  match(seg: Segment, ctx: RuleContext): string | null;
}

/** A match found while reading, not tied to one segment's rule check. */
export interface Finding {
  rule: string;
  reason: string;
  segment: string;
}
