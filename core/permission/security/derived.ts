/**
 * Commands that run other commands built from their arguments: `find
 * -exec`/`-delete`, `xargs CMD` (with literal input appended), and
 * PowerShell's `Start-Process -FilePath … -ArgumentList …`.
 *
 * @module
 */
import type { ReadContext } from "./context.ts";
import { psPositional, psValues } from "./flags.ts";
import type { RawCommand, Segment, ShellKind, Word } from "./types.ts";

/** Records a command as segments (the expander's `emit`). */
export type Emit = (raw: RawCommand, rc: ReadContext) => unknown;

/** `find … -exec CMD {} ;` and `find … -delete`: `{}` stands for every entry under the roots. */
export function find(seg: Segment, rc: ReadContext, emit: Emit): void {
  const first = seg.args.findIndex((a) => /^[-(!]/.test(a.text));
  const roots = first < 0 ? seg.args : seg.args.slice(0, first);
  const each = (roots.length > 0 ? roots : [{ text: ".", literal: true, sources: [] }])
    .map((r) => ({ ...r, text: r.text.replace(/[/\\]+$/, "") + "/*" }));
  for (let i = 0; i < seg.args.length; i++) {
    const t = seg.args[i].text;
    if (t === "-delete") {
      derived(seg, [lit("rm"), lit("-r"), lit("-f"), ...each], rc, emit, seg.text);
    }
    if (!/^-(exec|execdir|ok|okdir)$/.test(t)) continue;
    const end = seg.args.findIndex((a, j) => j > i && (a.text === ";" || a.text === "+"));
    const words = seg.args.slice(i + 1, end < 0 ? undefined : end);
    const expanded = words.flatMap((w) => (w.text === "{}" ? each : [w]));
    if (expanded.length > 0) derived(seg, expanded, rc, emit);
    if (end > i) i = end;
  }
}

/** `xargs CMD`: literal input is appended (or put in place of `-I` text). */
export function xargs(seg: Segment, rc: ReadContext, emit: Emit): void {
  const valued = /^-([IELnPsda]|-replace|-max-args|-max-procs|-delimiter|-arg-file|-eof)$/;
  let i = 0;
  let replace: string | null = null;
  while (i < seg.args.length && seg.args[i].text.startsWith("-")) {
    const t = seg.args[i].text;
    if (t === "-I" || t === "--replace") replace = seg.args[i + 1]?.text ?? "{}";
    else if (/^-I.+/.test(t)) replace = t.slice(2);
    i += valued.test(t) ? 2 : 1;
  }
  const words = seg.args.slice(i);
  if (words.length === 0) words.push(lit("echo"));
  const input = seg.stdin?.kind === "literal" ? seg.stdin.text.split(/\s+/).filter((s) => s) : [];
  if (replace === null) return derived(seg, [...words, ...input.map(lit)], rc, emit);
  const lines = input.length > 0 ? input.slice(0, 8) : [replace];
  for (const line of lines) {
    derived(seg, words.map((w) => ({ ...w, text: w.text.replaceAll(replace!, line) })), rc, emit);
  }
}

/** `Start-Process FILE -ArgumentList …` runs FILE with those arguments. */
export function startProcess(seg: Segment, rc: ReadContext, emit: Emit): void {
  const valued = ["filepath", "argumentlist", "args", "verb", "workingdirectory", "credential"]
    .concat([
      "redirectstandardinput",
      "redirectstandardoutput",
      "redirectstandarderror",
      "windowstyle",
    ]);
  const file = psValues(seg.args, "filepath", 1)[0] ?? psPositional(seg.args, valued)[0];
  if (!file) return;
  const at = seg.args.findIndex((a) => /^-(a|ar|arg|args|argu\w*)(:|$)/i.test(a.text));
  const listed: Word[] = [];
  if (at >= 0) {
    const glued = /:(.+)$/.exec(seg.args[at].text);
    if (glued) listed.push({ ...seg.args[at], text: glued[1] });
    // The first value is taken even when it looks like a parameter (`-ArgumentList '-c …'`).
    let i = at + 1;
    if (!glued && i < seg.args.length) listed.push(seg.args[i++]);
    for (; i < seg.args.length && !/^-[A-Za-z]/.test(seg.args[i].text); i++) {
      listed.push(seg.args[i]);
    }
  }
  const args = at >= 0 ? listed : psPositional(seg.args, valued).slice(1);
  const words = args.flatMap((w) => (w.literal ? splitArgs(w.text).map(lit) : [w]));
  derived({ ...seg, shell: "cmd" }, [file, ...words], rc, emit);
}

function derived(seg: Segment, words: Word[], rc: ReadContext, emit: Emit, text?: string): void {
  const shown = text ?? joinWords(words, seg.shell);
  emit(
    { shell: seg.shell, words, text: shown, writes: [], stdin: null, pipeline: seg.pipeline },
    rc,
  );
}

/** Splits a Windows argument string on blanks outside double quotes. */
function splitArgs(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

function lit(text: string): Word {
  return { text, literal: true, sources: [] };
}

/** Joins words back into command text, quoting those with spaces. */
export function joinWords(words: Word[], shell: ShellKind): string {
  if (words.length === 1) return words[0].text;
  return words.map((w) => (/\s/.test(w.text) ? quote(w.text, shell) : w.text)).join(" ");
}

function quote(text: string, shell: ShellKind): string {
  if (shell === "cmd") return `"${text}"`;
  return `'${text.replaceAll("'", shell === "bash" ? `'\\''` : "''")}'`;
}
