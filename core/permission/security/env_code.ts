/**
 * Environment variables whose value a program runs as a command line
 * (`GIT_SSH_COMMAND`, `PAGER`, `EDITOR`, `LESSOPEN`, …) or reads git
 * configuration from (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_KEY_<n>` with
 * `GIT_CONFIG_VALUE_<n>`): `GIT_SSH_COMMAND='rm -rf ~' git fetch` runs
 * `rm -rf ~`, so the value gets the verdict the command would get. Every
 * spelling counts: a prefix (`X=… cmd`), `env X=… cmd`, `export X=…`, cmd's
 * `set X=…` and PowerShell's `$env:X = …`.
 *
 * @module
 */
import type { ReadContext } from "./context.ts";
import { psPositional, psValues } from "./flags.ts";
import { gitKeyCode } from "./git_code.ts";
import { worst } from "./sources.ts";
import type { EnvAssignment, Segment, Source, Word } from "./types.ts";

/** Variables whose value some program runs as a shell command line. */
const COMMAND_VARIABLES = new Set([
  "GIT_SSH_COMMAND",
  "GIT_SSH",
  "GIT_ASKPASS",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_PAGER",
  "GIT_EXTERNAL_DIFF",
  "GIT_PROXY_COMMAND",
  "EDITOR",
  "VISUAL",
  "PAGER",
  "MANPAGER",
  "SYSTEMD_PAGER",
  "LESSOPEN",
  "LESSCLOSE",
  "BROWSER",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "PROMPT_COMMAND",
  "RUSTC_WRAPPER",
  "RUSTC",
  "CC",
  "CXX",
  "MAKESHELL",
  "NPM_CONFIG_SCRIPT_SHELL",
  "FCEDIT",
]);

/**
 * The code a command's own assignments (`X=… cmd`, `env X=… cmd`) make it
 * run, and PowerShell's environment items (`Set-Item env:X …`); marks `seg`.
 */
export function segmentEnvCode(seg: Segment, rc: ReadContext): void {
  if (seg.shell === "powershell") envItem(seg, rc);
  const env = seg.env ?? [];
  for (const a of env) {
    const origin = assignedCode(a.name, a.value, rc, (n) => env.find((b) => b.name === n)?.value);
    if (origin) seg.code ??= origin;
  }
}

/** Parameters of the item cmdlets that take a value. */
const ITEM_VALUED = ["path", "literalpath", "value", "name", "itemtype", "type", "credential"];

/** PowerShell's `Set-Item env:X v`, `New-Item -Path env:X -Value v`, `Set-Content env:X v`. */
function envItem(seg: Segment, rc: ReadContext): void {
  if (!/^(set-item|new-item|set-content|add-content)$/.test(seg.name)) return;
  const pos = psPositional(seg.args, ITEM_VALUED);
  const path = psValues(seg.args, "path")[0] ?? psValues(seg.args, "literalpath", 2)[0] ?? pos[0];
  const m = path ? /^env:[\\/]?(.+)$/i.exec(path.text) : null;
  const value = psValues(seg.args, "value")[0] ?? pos[path === pos[0] ? 1 : 0];
  if (m === null || value === undefined) return;
  const origin = assignedCode(m[1], value, rc, () => undefined);
  if (origin) seg.code ??= origin;
}

/**
 * Reads the code an assignment of `name` makes programs run. Returns the
 * value's origin when it is not known now; `other` finds another variable
 * assigned alongside (the `GIT_CONFIG_KEY_<n>` of a `GIT_CONFIG_VALUE_<n>`).
 */
function assignedCode(
  name: string,
  value: Word,
  rc: ReadContext,
  other: (name: string) => Word | undefined,
): Source | null {
  const n = name.toUpperCase();
  if (COMMAND_VARIABLES.has(n)) {
    if (!value.literal) return worst(value.sources) ?? { kind: "variable", detail: name };
    // LESSOPEN="| lesspipe %s": the command after the pipe sign.
    rc.read(value.text.replace(/^\s*\|+/, ""), "bash", {});
    return null;
  }
  if (n === "GIT_CONFIG_PARAMETERS") return configParameters(value, rc);
  const pair = /^GIT_CONFIG_(KEY|VALUE)_(\d+)$/.exec(n);
  if (pair === null) return null;
  const key = pair[1] === "KEY" ? value : other(`GIT_CONFIG_KEY_${pair[2]}`);
  const val = pair[1] === "VALUE" ? value : other(`GIT_CONFIG_VALUE_${pair[2]}`);
  if (key === undefined || val === undefined) return null;
  return gitKeyCode(key.text, val, rc);
}

/** `GIT_CONFIG_PARAMETERS="'core.pager=…' 'alias.x=!…'"`: each quoted `key=value`, as `git -c`. */
function configParameters(value: Word, rc: ReadContext): Source | null {
  if (!value.literal) return worst(value.sources) ?? { kind: "variable", detail: value.text };
  let found: Source | null = null;
  for (const m of value.text.matchAll(/'((?:[^'\\]|\\.)*)'/g)) {
    const item = m[1].replace(/\\(.)/g, "$1");
    const eq = item.indexOf("=");
    if (eq <= 0) continue;
    const word = { text: item.slice(eq + 1), literal: true, sources: [] };
    found ??= gitKeyCode(item.slice(0, eq), word, rc);
  }
  return found;
}

/**
 * An assignment of `name` on its own (`export`, cmd's `set`, PowerShell's
 * `$env:`), which later commands of the line may run: its code is read, and
 * a value not known now is code not known now (`eval` of it).
 */
export function assignedVariable(
  name: string,
  value: Word,
  rc: ReadContext,
  known: ReadonlyMap<string, string>,
): void {
  const other = (n: string) => {
    const text = known.get(n) ?? known.get(n.toLowerCase());
    return text === undefined ? undefined : { text, literal: true, sources: [] };
  };
  if (assignedCode(name, value, rc, other)) rc.read(`eval "$${name}"`, "bash", { sameScope: true });
}

/** `NAME=VALUE` words (of `env`), as assignments. */
export function envWords(words: readonly Word[]): EnvAssignment[] {
  const out: EnvAssignment[] = [];
  for (const w of words) {
    const m = /^([A-Za-z_]\w*)=/.exec(w.text);
    if (m) out.push({ name: m[1], value: { ...w, text: w.text.slice(m[0].length) } });
  }
  return out;
}
