/**
 * Reads cmd.exe code from tokens: `&`, `&&`, `||`, `|` and newlines,
 * `( … )` blocks, `if` and `for … do`, `^` escapes, `%VAR%` expansion with
 * literal `set` values, `echo` output, redirections.
 *
 * @module
 */
import { addFinding, type ReadContext } from "./context.ts";
import { assignedVariable } from "./env_code.ts";
import { emit } from "./expand.ts";
import { literal, worst } from "./sources.ts";
import type { Source, Word } from "./types.ts";
import { windowsEnv } from "./windows_env.ts";

type CmdToken = { type: "word"; raw: string } | { type: "op"; op: string };

const SEPARATORS = ["\n", "&", "&&", "||", "(", ")"];

/**
 * Reads `text` as cmd.exe code into `rc` and returns what it writes to stdout.
 *
 * @example
 * ```ts
 * readCmd("cd x & RD /S /Q C:\\", rc);
 * rc.segments.map((s) => s.name); // ["cd", "rd"]
 * ```
 */
export function readCmd(text: string, rc: ReadContext): Source {
  let out: Source | undefined;
  const tokens = lexCmd(text);
  let current: CmdToken[] = [];
  const flush = () => {
    if (current.length > 0) out = pipeline(current, rc) ?? out;
    current = [];
  };
  for (const t of tokens) {
    if (t.type === "op" && SEPARATORS.includes(t.op)) flush();
    else current.push(t);
  }
  flush();
  return out ?? literal("", "cmd");
}

function pipeline(tokens: CmdToken[], rc: ReadContext): Source | undefined {
  const stages: CmdToken[][] = [[]];
  for (const t of tokens) {
    if (t.type === "op" && t.op === "|") stages.push([]);
    else stages.at(-1)!.push(t);
  }
  const text = render(tokens);
  if (
    stages.length > 1 &&
    stages.every((s) => s.length === 1 && s[0].type === "word" && s[0].raw === "%0")
  ) {
    addFinding(rc, "fork-bomb", "The batch file starts copies of itself (fork bomb)", text);
  }
  let input: Source | null = null;
  for (const stage of stages) {
    if (stage.length > 0) input = statement(stage, input, rc, text) ?? null;
  }
  return input ?? undefined;
}

function statement(
  tokens: CmdToken[],
  stdin: Source | null,
  rc: ReadContext,
  pipe: string,
): Source | undefined {
  const rest = commandInQuotes(skipControl(tokens, rc));
  if (rest.length === 0) return undefined;
  const head = rest[0].type === "word"
    ? cmdWord(rest[0].raw, rc).text.replace(/^@+/, "").toLowerCase()
    : "";
  if (head === "rem" || head.startsWith("::")) return undefined;
  if (head === "set") {
    return assign(rest.slice(1).map((t) => (t.type === "word" ? cmdWord(t.raw, rc) : null)), rc);
  }
  const words: Word[] = [];
  const writes: Word[] = [];
  const reads: Word[] = [];
  let input = stdin;
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i];
    if (t.type === "word") {
      words.push(...splitExpanded(i === 0 ? t.raw.replace(/^@+/, "") : t.raw, rc));
    } else if (/^[0-9]?>/.test(t.op) && !/&\d$/.test(t.op) && rest[i + 1]?.type === "word") {
      writes.push(cmdWord((rest[++i] as CmdToken & { type: "word" }).raw, rc));
    } else if (t.op === "<" && rest[i + 1]?.type === "word") {
      const raw = (rest[++i] as CmdToken & { type: "word" }).raw;
      input = { kind: "file", detail: raw };
      reads.push(cmdWord(raw, rc));
    }
  }
  if (words.length === 0 && writes.length === 0) return undefined;
  if (head === "echo" || head.startsWith("echo.")) {
    const text = render(
      rest.slice(1).filter((t, i, all) => t.type === "word" && !isRedirectTarget(all, i)),
    );
    if (writes.length > 0) {
      emit(
        { shell: "cmd", words: [], text: render(rest), writes, stdin: null, pipeline: pipe },
        rc,
      );
    }
    return literal(text, "cmd");
  }
  const raw = { shell: "cmd" as const, words, text: render(rest), writes, reads, stdin: input };
  return emit({ ...raw, pipeline: pipe }, rc).out;
}

/** `for /f %i in ('rd /s /q x') do …` runs the command in the quotes (backquotes with usebackq). */
function commandInQuotes(rest: CmdToken[]): CmdToken[] {
  const first = rest[0];
  const last = rest.at(-1);
  if (first?.type !== "word" || last?.type !== "word") return rest;
  const q = first.raw[0];
  if (
    (q !== "'" && q !== "`") || !last.raw.endsWith(q) || (rest.length === 1 && first.raw.length < 2)
  ) {
    return rest;
  }
  const out = rest.map((t) => ({ ...t }));
  const head = out[0] as CmdToken & { type: "word" };
  head.raw = head.raw.slice(1);
  const tail = out.at(-1) as CmdToken & { type: "word" };
  tail.raw = tail.raw.slice(0, -1);
  return out.filter((t) => t.type !== "word" || t.raw !== "");
}

/** `%X%` holding `rd /s /q C:\` becomes several words, as cmd expands before it splits. */
function splitExpanded(raw: string, rc: ReadContext): Word[] {
  const w = cmdWord(raw, rc);
  if (!/[%!]/.test(raw) || raw.includes('"') || !w.literal || !/\s/.test(w.text.trim())) return [w];
  return w.text.trim().split(/\s+/).map((text) => ({ text, literal: true, sources: [] }));
}

function isRedirectTarget(tokens: CmdToken[], i: number): boolean {
  const prev = tokens[i - 1];
  return prev?.type === "op" && /[<>]/.test(prev.op);
}

/** Drops the head of `if …` and `for … do`, leaving the command they run. */
function skipControl(tokens: CmdToken[], rc: ReadContext): CmdToken[] {
  const text = (
    t: CmdToken | undefined,
  ) => (t?.type === "word" ? cmdWord(t.raw, rc).text.toLowerCase() : "");
  let rest = tokens;
  for (let guard = 0; guard < 4; guard++) {
    const head = text(rest[0]).replace(/^@+/, "");
    if (head === "else" || head === "do") rest = rest.slice(1);
    else if (head === "if") rest = skipIf(rest.slice(1), text);
    else if (head === "for") {
      const d = rest.findIndex((t) => text(t) === "do");
      rest = d < 0 ? [] : rest.slice(d + 1);
    } else break;
  }
  return rest;
}

function skipIf(rest: CmdToken[], text: (t: CmdToken | undefined) => string): CmdToken[] {
  let i = 0;
  while (text(rest[i]) === "/i" || text(rest[i]) === "not") i++;
  const kw = text(rest[i]);
  if (["exist", "defined", "errorlevel", "cmdextversion"].includes(kw)) return rest.slice(i + 2);
  if (text(rest[i]).includes("==")) return rest.slice(text(rest[i]).endsWith("==") ? i + 2 : i + 1);
  if (/^(equ|neq|lss|leq|gtr|geq|==)$/.test(text(rest[i + 1]))) return rest.slice(i + 3);
  return rest.slice(i + 1);
}

function assign(args: (Word | null)[], rc: ReadContext): undefined {
  const all = args.filter((w): w is Word => w !== null);
  if (all.length === 0 || /^\/[ap]$/i.test(all[0].text)) return undefined;
  const text = all.map((w) => w.text).join(" ");
  const eq = text.indexOf("=");
  if (eq <= 0) return undefined;
  const name = text.slice(0, eq).toLowerCase();
  const literal = all.every((w) => w.literal);
  if (literal) rc.vars.set(name, text.slice(eq + 1));
  else rc.vars.delete(name);
  const sources = all.flatMap((w) => w.sources);
  assignedVariable(name, { text: text.slice(eq + 1), literal, sources }, rc, rc.vars);
  return undefined;
}

function render(tokens: CmdToken[]): string {
  return tokens.map((t) => (t.type === "op" ? t.op : t.raw)).join(" ").trim();
}

/** Splits cmd text into raw words and operators; values are expanded when a statement runs. */
function lexCmd(source: string): CmdToken[] {
  const s = source.replace(/\^\r?\n/g, "");
  const out: CmdToken[] = [];
  let i = 0;
  let depth = 0;
  while (i < s.length) {
    const c = s[i];
    const op = /^(&&|\|\||[0-9]?>>?(&[0-9])?|[&|<]|\r?\n)/.exec(s.slice(i))?.[0];
    if (c === " " || c === "\t" || (c === "\r" && s[i + 1] !== "\n")) i++;
    else if (op) out.push({ type: "op", op: op.replace("\r", "") }), i += op.length;
    else if (c === "(") out.push({ type: "op", op: "(" }), depth++, i++;
    else if (c === ")" && depth > 0) out.push({ type: "op", op: ")" }), depth--, i++;
    else i = rawWord(s, i, depth, out);
  }
  return out;
}

function rawWord(s: string, i: number, depth: number, out: CmdToken[]): number {
  const start = i;
  let quoted = false;
  for (; i < s.length; i++) {
    const c = s[i];
    if (!quoted && (/[\s&|<>]/.test(c) || (c === ")" && depth > 0))) break;
    if (!quoted && i === start && /[0-9]/.test(c) && s[i + 1] === ">") break;
    if (c === '"') quoted = !quoted;
    else if (c === "^" && !quoted) i++;
  }
  if (i === start) i++;
  out.push({ type: "word", raw: s.slice(start, i) });
  return i;
}

/** The value of a raw word: quotes and `^` removed, `%VAR%` and `!VAR!` expanded when known. */
function cmdWord(raw: string, rc: ReadContext): Word {
  let text = "";
  let quoted = false;
  let known = true;
  const sources: Source[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '"') quoted = !quoted;
    else if (c === "^" && !quoted && i + 1 < raw.length) text += raw[++i];
    else if (c === "%" || c === "!") {
      const m = /^([%!])([^%!\s|&<>()^"]+)\1/.exec(raw.slice(i));
      const value = m ? variable(m[2], rc) : undefined;
      if (m && value !== undefined) text += value;
      else if (m || /^%~?[0-9*]/.test(raw.slice(i))) {
        const part = m ? m[0] : /^%~?[a-z]*[0-9*]/i.exec(raw.slice(i))![0];
        text += part;
        known = false;
        sources.push({ kind: "variable", detail: part });
        i += part.length - 1;
        continue;
      } else text += c;
      if (m) i += m[0].length - 1;
    } else text += c;
  }
  const source = worst(sources);
  return { text, literal: known, sources: source ? [source] : [] };
}

function variable(name: string, rc: ReadContext): string | undefined {
  const n = name.toLowerCase();
  if (n.includes(":")) return undefined;
  return rc.vars.get(n) ?? windowsEnv(n, rc.rules);
}
