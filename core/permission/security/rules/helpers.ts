/**
 * Small helpers the rule sets share: defining a rule, git's sub-command,
 * targets of commands that write files.
 *
 * @module
 */
import { operands, psPositional, psValues } from "../flags.ts";
import type { Rule, Segment, Word } from "../types.ts";

/** Defines a built-in rule. */
export function defineRule(
  id: string,
  verdict: Rule["verdict"],
  risk: Rule["risk"],
  description: string,
  match: Rule["match"],
): Rule {
  return Object.freeze({ id, verdict, risk, description, match });
}

/** git's sub-command and the arguments after it, skipping global options (`-C dir`, `-c k=v`). */
export function gitCommand(seg: Segment): { sub: string; rest: Word[] } | null {
  if (seg.name !== "git") return null;
  for (let i = 0; i < seg.args.length; i++) {
    const t = seg.args[i].text;
    if (
      t === "-C" || t === "-c" || t === "--git-dir" || t === "--work-tree" || t === "--namespace"
    ) i++;
    else if (!t.startsWith("-")) return { sub: t.toLowerCase(), rest: seg.args.slice(i + 1) };
  }
  return null;
}

/** The first operand and the rest, for tools like `npm publish`, `docker push`. */
export function verb(
  seg: Segment,
  skipValued: readonly string[] = [],
): { sub: string; rest: Word[] } {
  for (let i = 0; i < seg.args.length; i++) {
    const t = seg.args[i].text;
    if (skipValued.includes(t)) i++;
    else if (!t.startsWith("-") && !t.startsWith("/")) {
      return { sub: t.toLowerCase(), rest: seg.args.slice(i + 1) };
    }
  }
  return { sub: "", rest: [] };
}

/** PowerShell parameters that take a value, for item cmdlets. */
const PS_VALUED = [
  "path",
  "literalpath",
  "filter",
  "include",
  "exclude",
  "credential",
  "stream",
  "destination",
]
  .concat(["value", "name", "type", "itemtype", "encoding", "propertytype", "inputobject"]);

/** The path arguments of a PowerShell item cmdlet (`-Path`, `-LiteralPath`, positional). */
export function psPaths(seg: Segment): Word[] {
  const named = [
    ...psValues(seg.args, "filepath", 2),
    ...psValues(seg.args, "path"),
    ...psValues(seg.args, "literalpath", 2),
    ...psValues(seg.args, "pspath", 2),
  ];
  const pos = psPositional(seg.args, PS_VALUED);
  return named.length > 0 ? named : pos.slice(0, 1);
}

/** Where a command writes files: redirections plus destinations of copy-like commands. */
export function writeTargets(seg: Segment): Word[] {
  const out = [...seg.writes];
  const ops = operands(seg.args);
  switch (seg.name) {
    case "tee":
    case "truncate":
    case "touch":
      out.push(...ops);
      break;
    case "cp":
    case "mv":
    case "install":
    case "ln":
    case "rsync":
    case "scp":
    case "copy":
    case "move":
    case "xcopy":
    case "robocopy":
      if (ops.length > 1) out.push(ops[ops.length - 1]);
      break;
    case "sed":
    case "perl":
      if (seg.args.some((a) => /^-[a-zA-Z]*i/.test(a.text) || a.text.startsWith("--in-place"))) {
        out.push(...ops.slice(1));
      }
      break;
    case "dd":
      out.push(
        ...seg.args.filter((a) => a.text.startsWith("of=")).map((a) => ({
          ...a,
          text: a.text.slice(3),
        })),
      );
      break;
    case "set-content":
    case "add-content":
    case "out-file":
    case "new-item":
    case "clear-content":
    case "set-item":
      out.push(...psPaths(seg));
      break;
    case "copy-item":
    case "move-item":
      out.push(
        ...psValues(seg.args, "destination"),
        ...psPositional(seg.args, PS_VALUED).slice(1, 2),
      );
      break;
  }
  return out;
}

/**
 * The files a command writes or changes: its write targets and the files an
 * editor opens; with `deletes`, also the operands of a delete command.
 */
export function changedFiles(seg: Segment, deletes = false): Word[] {
  const out = writeTargets(seg);
  if (EDITORS.has(seg.name) || (deletes && /^(rm|unlink|remove-item|del)$/.test(seg.name))) {
    out.push(...operands(seg.args));
  }
  return out;
}

/** Editors that change the file they open. */
export const EDITORS = new Set([
  "vi",
  "vim",
  "nvim",
  "nano",
  "pico",
  "emacs",
  "code",
  "subl",
  "gedit",
  "notepad",
  "kate",
  "micro",
  "ed",
]);

/** Whether any argument (lower case) matches `re`. */
export function anyArg(seg: Segment, re: RegExp): Word | undefined {
  return seg.args.find((a) => re.test(a.text));
}
