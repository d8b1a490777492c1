/**
 * Reading options from a segment's arguments in each shell's spelling:
 * POSIX clusters (`-rf`) and long options (`--force`), PowerShell parameter
 * prefixes (`-fo`, `-Recurse:$true`) and cmd switches (`/S`).
 *
 * @module
 */
import type { Segment, Word } from "./types.ts";

/**
 * Whether a POSIX-style option is present: one of the `short` letters alone
 * or in a cluster (`-rf`), or one of the `long` names (`--force`,
 * `--force=…`). Options after `--` do not count.
 */
export function hasOption(
  args: readonly Word[],
  short: string,
  long: readonly string[] = [],
): boolean {
  for (const a of args) {
    const t = a.text;
    if (t === "--") return false;
    if (t.startsWith("--")) {
      const name = t.slice(2).split("=")[0];
      if (long.includes(name)) return true;
    } else if (/^-[A-Za-z0-9]+$/.test(t) && short !== "") {
      if ([...t.slice(1)].some((c) => short.includes(c))) return true;
    }
  }
  return false;
}

/** Whether any argument is exactly one of `texts` (case-insensitive when `fold`). */
export function hasArg(args: readonly Word[], texts: readonly string[], fold = false): boolean {
  return args.some((a) => texts.includes(fold ? a.text.toLowerCase() : a.text));
}

/** Arguments that are not options (POSIX style); everything after `--` counts. */
export function operands(args: readonly Word[]): Word[] {
  const out: Word[] = [];
  let done = false;
  for (const a of args) {
    if (!done && a.text === "--") done = true;
    else if (done || !a.text.startsWith("-") || a.text === "-") out.push(a);
  }
  return out;
}

/**
 * Whether a PowerShell switch parameter is given, by any unambiguous prefix
 * (`-r`, `-Rec`, `-Recurse`, `-Recurse:$true`; not `-Recurse:$false`).
 */
export function psSwitch(args: readonly Word[], name: string, minPrefix = 1): boolean {
  return args.some((a) => {
    const m = /^[-\u2013\u2014]([A-Za-z][\w-]*)(?::(.*))?$/.exec(a.text);
    if (!m || !matchesPrefix(m[1], name, minPrefix)) return false;
    return m[2] === undefined || !/^\$?(false|0)$/i.test(m[2]);
  });
}

/** Values of a PowerShell parameter given by prefix (`-Path x`, `-Path:x`). */
export function psValues(args: readonly Word[], name: string, minPrefix = 1): Word[] {
  const out: Word[] = [];
  args.forEach((a, i) => {
    const m = /^[-\u2013\u2014]([A-Za-z][\w-]*)(?::(.+))?$/.exec(a.text);
    if (!m || !matchesPrefix(m[1], name, minPrefix)) return;
    if (m[2] !== undefined) out.push({ ...a, text: m[2] });
    else if (args[i + 1] && !isPsParam(args[i + 1])) out.push(args[i + 1]);
  });
  return out;
}

/**
 * Positional arguments of a PowerShell command: not parameters and not the
 * value of a parameter listed in `valued`.
 */
export function psPositional(args: readonly Word[], valued: readonly string[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const m = /^[-\u2013\u2014]([A-Za-z][\w-]*)(:.*)?$/.exec(a.text);
    if (!m) {
      out.push(a);
      continue;
    }
    if (m[2] === undefined && valued.some((v) => matchesPrefix(m[1], v, 1))) i++;
  }
  return out;
}

/** Whether a word is a PowerShell parameter name. */
export function isPsParam(w: Word): boolean {
  return /^[-\u2013\u2014][A-Za-z]/.test(w.text);
}

function matchesPrefix(given: string, name: string, minPrefix: number): boolean {
  const g = given.toLowerCase();
  return g.length >= minPrefix && name.toLowerCase().startsWith(g);
}

/** Whether a cmd switch (`/S`, `/s`, or inside `/s/q`) is present; `-` is accepted too. */
export function cmdSwitch(args: readonly Word[], letter: string): boolean {
  const l = letter.toLowerCase();
  return args.some((a) => {
    if (!/^[/-]/.test(a.text)) return false;
    return a.text.toLowerCase().split(/[/]/).some((s, i) =>
      (i > 0 || a.text.startsWith("-")) && s.replace(/^-/, "").split(":")[0] === l
    );
  });
}

/** The first operand (POSIX style) in lower case, e.g. a sub-command. */
export function subcommand(seg: Segment): string {
  return operands(seg.args)[0]?.text.toLowerCase() ?? "";
}

/** Every argument's text in lower case, for searching values. */
export function lowerArgs(seg: Segment): string[] {
  return seg.args.map((a) => a.text.toLowerCase());
}
