/**
 * Code a command runs that is written inside its arguments or fed on its
 * standard input: `bash -c '…'`, `eval`, `sh` reading a pipe, `cmd /c`,
 * `powershell -Command`, `Invoke-Expression`, `find -exec`, `xargs`,
 * `Start-Process`, interpreters with downloaded input.
 *
 * @module
 */
import type { ReadContext } from "./context.ts";
import { operands, psPositional, psValues } from "./flags.ts";
import { isInterpreter, POSIX_SHELLS, POWERSHELLS } from "./names.ts";
import { worst } from "./sources.ts";
import type { Segment, ShellKind, Word } from "./types.ts";

import { type Emit, find, joinWords, startProcess, xargs } from "./derived.ts";
import { hiddenExecution, libraryCalls } from "./hidden.ts";

/** Follows the code `seg` runs; sets `seg.code` when that code is not known now. */
export function runNested(seg: Segment, rc: ReadContext, emit: Emit): void {
  const n = seg.name;
  hiddenExecution(seg, rc);
  if (POSIX_SHELLS.has(n)) posixShell(seg, rc);
  else if (POWERSHELLS.has(n)) powershell(seg, rc);
  else if (n === "cmd") cmdShell(seg, rc);
  else if (n === "eval") runText(seg, seg.args, "bash", rc, true);
  else if (n === "invoke-expression") invokeExpression(seg, rc);
  else if (n === "source" || n === ".") scriptOperand(seg, seg.args[0]);
  else if (n === "watch") runText(seg, watchCommand(seg.args), "bash", rc, false);
  else if (n === "trap" && seg.args[0]) runText(seg, [seg.args[0]], "bash", rc, true);
  else if (n === "find") find(seg, rc, emit);
  else if (n === "xargs") xargs(seg, rc, emit);
  else if (n === "start-process") startProcess(seg, rc, emit);
  else if (n === "wsl" || n === "wsl.exe") wsl(seg, rc);
  else if (n === "env") envSplit(seg, rc);
  else if (n === "alias") aliases(seg, rc);
  else if (isInterpreter(n)) interpreter(seg, rc);
  else if (/^(awk|gawk|mawk|nawk)$/.test(n) && seg.args[0]?.literal) {
    shellStrings(operands(seg.args)[0]?.text ?? "", rc);
  }
}

/** `watch [-n secs] [-d] command …`: the command words. */
function watchCommand(args: Word[]): Word[] {
  let i = 0;
  while (i < args.length && args[i].text.startsWith("-")) {
    i += /^(-n|--interval|-g|--chgexit|-q|--equexit)$/.test(args[i].text) ? 2 : 1;
  }
  return args.slice(i);
}

function posixShell(seg: Segment, rc: ReadContext): void {
  let command = false;
  let fromStdin = false;
  const ops: Word[] = [];
  for (let i = 0; i < seg.args.length; i++) {
    const t = seg.args[i].text;
    if (ops.length > 0) ops.push(seg.args[i]);
    else if (/^[-+][oO]$/.test(t) || t === "--rcfile" || t === "--init-file") i++;
    else if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(t) || t === "--command") command = true;
    else if (/^-[a-zA-Z]*s[a-zA-Z]*$/.test(t)) fromStdin = true;
    else if (!/^[-+]/.test(t)) ops.push(seg.args[i]);
  }
  if (command && ops[0]) return runText(seg, [ops[0]], "bash", rc, false);
  if (ops[0] && !fromStdin) return scriptOperand(seg, ops[0]);
  stdinCode(seg, "bash", rc);
}

function powershell(seg: Segment, rc: ReadContext): void {
  const valued = [
    "executionpolicy",
    "ep",
    "windowstyle",
    "version",
    "psconsolefile",
    "configurationname",
  ]
    .concat([
      "workingdirectory",
      "outputformat",
      "inputformat",
      "custompipename",
      "settingsfile",
      "wd",
    ]);
  for (let i = 0; i < seg.args.length; i++) {
    const t = seg.args[i].text.toLowerCase();
    const m = /^[-/]([a-z]+)(?::.*)?$/.exec(t);
    if (!m) return runText(seg, seg.args.slice(i), "powershell", rc, false);
    const p = m[1];
    if (p === "ec" || (p.startsWith("e") && "encodedcommand".startsWith(p))) {
      seg.code = { kind: "decoded", detail: "-EncodedCommand" };
      return;
    }
    if (p.length >= 1 && "command".startsWith(p)) {
      const rest = seg.args.slice(i + 1);
      if (rest.length === 1 && rest[0].text === "-") return stdinCode(seg, "powershell", rc);
      return runText(seg, rest, "powershell", rc, false);
    }
    if ("file".startsWith(p)) return scriptOperand(seg, seg.args[i + 1]);
    if (valued.some((v) => v.startsWith(p))) i++;
  }
  stdinCode(seg, "powershell", rc);
}

function cmdShell(seg: Segment, rc: ReadContext): void {
  const i = seg.args.findIndex((a) => /^\/[ckr]$/i.test(a.text));
  if (i >= 0) return runText(seg, seg.args.slice(i + 1), "cmd", rc, false);
  const glued = seg.args.findIndex((a) => /^\/[ckr]\S/i.test(a.text));
  if (glued >= 0) {
    const first = { ...seg.args[glued], text: seg.args[glued].text.slice(2) };
    return runText(seg, [first, ...seg.args.slice(glued + 1)], "cmd", rc, false);
  }
  if (seg.args.length === 0) stdinCode(seg, "cmd", rc);
}

function invokeExpression(seg: Segment, rc: ReadContext): void {
  const named = psValues(seg.args, "command");
  const code = named.length > 0 ? named : psPositional(seg.args, ["command"]);
  if (code.length === 0) return stdinCode(seg, "powershell", rc);
  runText(seg, code, "powershell", rc, true);
}

/** Runs words as code when all are literal; otherwise records where the code comes from. */
function runText(
  seg: Segment,
  words: Word[],
  shell: ShellKind,
  rc: ReadContext,
  same: boolean,
): void {
  if (words.length === 0) return;
  if (words.every((w) => w.literal)) {
    rc.read(joinWords(words, shell), shell, { sameScope: same });
    return;
  }
  seg.code = worst(words.flatMap((w) => w.sources)) ??
    { kind: "variable", detail: joinWords(words, shell) };
}

/** A script given by path: only its origin matters (`bash <(curl …)`). */
function scriptOperand(seg: Segment, word: Word | undefined): void {
  if (word && !word.literal) seg.code = worst(word.sources) ?? seg.code;
}

/** A shell or interpreter that reads its program from standard input. */
function stdinCode(seg: Segment, shell: ShellKind, rc: ReadContext): void {
  const input = seg.stdin;
  if (!input) return;
  if (input.kind === "literal") rc.read(input.text, shell, {});
  else seg.code = input;
}

const SHELL_CALL =
  /\b(?:system|popen|exec|execSync|execFileSync|spawnSync|check_output|check_call|call|run|Popen|shell_exec|passthru|proc_open)\s*\(\s*(?:\[\s*)?(["'`])((?:\\.|(?!\1).)*)\1/g;

/** Shell commands inside literal script code (`system("…")`, `os.system('…')`, backticks). */
function shellStrings(code: string, rc: ReadContext): void {
  for (const m of code.matchAll(SHELL_CALL)) rc.read(m[2].replace(/\\(.)/g, "$1"), "bash", {});
}

/** Perl, Ruby and PHP run backtick strings as shell commands. */
function backticks(code: string, rc: ReadContext): void {
  for (const m of code.matchAll(/`([^`]+)`/g)) rc.read(m[1], "bash", {});
}

function interpreter(seg: Segment, rc: ReadContext): void {
  const i = seg.args.findIndex((a) => /^-(c|e|p|E|-eval|-print|r)$/.test(a.text));
  const code = i >= 0 ? seg.args[i + 1] : undefined;
  if (code && !code.literal) {
    seg.code = worst(code.sources) ?? { kind: "variable", detail: code.text };
    return;
  }
  if (code && /^(perl|ruby|php)/.test(seg.name)) backticks(code.text, rc);
  if (code) libraryCalls(seg, code.text, rc);
  if (code) return shellStrings(code.text, rc);
  if (i >= 0) return;
  const script = seg.args.find((a) => !a.text.startsWith("-"));
  if (script) return scriptOperand(seg, script);
  if (seg.stdin && seg.stdin.kind !== "literal") seg.code = seg.stdin;
}

/** `env -S "cmd args"` splits the string into a command. */
function envSplit(seg: Segment, rc: ReadContext): void {
  const i = seg.args.findIndex((a) => /^(-S|--split-string)/.test(a.text));
  if (i < 0) return;
  const glued = /^(?:-S|--split-string=?)(.+)$/.exec(seg.args[i].text);
  const rest = glued
    ? [{ ...seg.args[i], text: glued[1] }, ...seg.args.slice(i + 1)]
    : seg.args.slice(i + 1);
  runText(seg, rest, "bash", rc, false);
}

/** `alias x='…'`: the alias body is code that may run later in the line. */
function aliases(seg: Segment, rc: ReadContext): void {
  for (const a of seg.args) {
    const eq = a.text.indexOf("=");
    if (eq > 0 && a.literal) rc.read(a.text.slice(eq + 1), "bash", { sameScope: true });
  }
}

/** `wsl [options] [--] command …` runs the command in Linux. */
function wsl(seg: Segment, rc: ReadContext): void {
  let i = 0;
  while (i < seg.args.length && /^-/.test(seg.args[i].text)) {
    const t = seg.args[i].text;
    if (t === "--" || t === "-e" || t === "--exec") {
      i++;
      break;
    }
    i += /^(-d|--distribution|-u|--user|--cd)$/.test(t) ? 2 : 1;
  }
  runText(seg, seg.args.slice(i), "bash", rc, false);
}
