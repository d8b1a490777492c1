/**
 * Reads PowerShell code from tokens: statements, pipelines, the call
 * operator, script blocks and subexpressions (read as code), literal
 * variable assignments, and expressions that fetch or decode text.
 *
 * @module
 */
import { dotnetCommands } from "./powershell_dotnet.ts";
import { addFinding, type ReadContext } from "./context.ts";
import { assignedVariable } from "./env_code.ts";
import { emit } from "./expand.ts";
import { lexChecked, lexPowerShell, type PsPart, type PsToken } from "./powershell_lexer.ts";
import { literal, worse, worst } from "./sources.ts";
import type { Source, Word } from "./types.ts";
import { windowsEnv } from "./windows_env.ts";

const KEYWORDS = new Set([
  "if",
  "elseif",
  "else",
  "foreach",
  "for",
  "while",
  "do",
  "until",
  "switch",
  "try",
  "catch",
  "finally",
  "function",
  "filter",
  "param",
  "return",
  "throw",
  "trap",
  "begin",
  "process",
  "end",
  "class",
  "enum",
  "using",
  "exit",
  "break",
  "continue",
]);
const NETWORK =
  /downloadstring|downloaddata|downloadfile|webclient|httpclient|webrequest|invoke-webrequest|invoke-restmethod|\biwr\b|\birm\b|start-bitstransfer/i;
const DECODE = /frombase64string|convertfrom-base64|gzipstream|deflatestream/i;

/**
 * Reads `text` as PowerShell into `rc` and returns what it writes to stdout.
 *
 * @example
 * ```ts
 * readPowerShell("ri -r -fo C:\\Windows", rc);
 * rc.segments[0].name; // "remove-item"
 * ```
 */
export function readPowerShell(text: string, rc: ReadContext): Source {
  let out: Source | undefined;
  const lexed = lexChecked(text);
  if (lexed.unterminated) {
    addFinding(
      rc,
      "parse-error",
      "A quote or bracket is not closed, so the command cannot be checked reliably",
      text,
    );
  }
  for (const statement of split(lexed.tokens, ["\n", ";", "&&", "||"])) {
    let input: Source | null = null;
    const stages = split(statement, ["|"]);
    for (const stage of stages) {
      input = readStage(stage, input, rc, statement) ?? null;
    }
    out = input ?? out;
  }
  return out ?? literal("", "powershell");
}

function split(tokens: PsToken[], ops: string[]): PsToken[][] {
  const out: PsToken[][] = [[]];
  for (const t of tokens) {
    if (t.type === "op" && ops.includes(t.op)) out.push([]);
    else out.at(-1)!.push(t);
  }
  return out.filter((s) => s.length > 0);
}

function readStage(
  tokens: PsToken[],
  stdin: Source | null,
  rc: ReadContext,
  statement: PsToken[],
): Source | undefined {
  const first = tokens[0];
  const head = first.type === "word" ? plainText(first) : null;
  if (head !== null && KEYWORDS.has(head.toLowerCase())) return readGroups(tokens, rc);
  if (first.type === "word" && tokens[1]?.type === "op" && /^[-+*/%]?=$/.test(tokens[1].op)) {
    return assign(first, tokens.slice(2), stdin, rc, statement);
  }
  if (first.type === "op" && (first.op === "&" || first.op === ".")) {
    return call(tokens.slice(1), stdin, rc, statement);
  }
  if (head !== null && head !== "" && !head.startsWith("-")) {
    return command(tokens, stdin, rc, statement);
  }
  return expression(tokens, rc);
}

function assign(
  target: PsToken & { type: "word" },
  rhs: PsToken[],
  stdin: Source | null,
  rc: ReadContext,
  statement: PsToken[],
) {
  const v = target.parts.length === 1 && target.parts[0].kind === "var"
    ? scopeless(target.parts[0].name)
    : null;
  const quoted = rhs.length === 1 && rhs[0].type === "word" && rhs[0].parts[0]?.kind === "text" &&
    rhs[0].parts[0].quoted;
  const value = quoted ? wordOf(rhs[0] as PsToken & { type: "word" }, rc) : null;
  const out = rhs.length > 0 ? readStage(rhs, stdin, rc, statement) : undefined;
  if (v !== null) {
    rc.vars.delete(v);
    rc.taint.delete(v);
    if (value?.literal) rc.vars.set(v, value.text);
    else if (out && out.kind !== "literal") rc.taint.set(v, out);
    else if (out?.kind === "literal") rc.vars.set(v, out.text);
    const env = /^env:(.+)$/i.exec(v);
    if (env) {
      const text = rc.vars.get(v);
      const word = text === undefined
        ? { text: v, literal: false, sources: out ? [out] : [] }
        : { text, literal: true, sources: [] };
      assignedVariable(env[1], word, rc, rc.vars);
    }
  }
  return out;
}

function call(
  tokens: PsToken[],
  stdin: Source | null,
  rc: ReadContext,
  statement: PsToken[],
): Source | undefined {
  const target = tokens[0];
  if (!target) return undefined;
  if (target.type === "group" && target.open === "{") return readGroups(tokens, rc);
  return command(tokens, stdin, rc, statement);
}

function command(
  tokens: PsToken[],
  stdin: Source | null,
  rc: ReadContext,
  statement: PsToken[],
): Source {
  const words: Word[] = [];
  const writes: Word[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === "op" && /[>]/.test(t.op) && !/&\d$/.test(t.op)) {
      const target = tokens[i + 1];
      if (target?.type === "word") writes.push(wordOf(target, rc));
      i++;
    } else if (t.type === "word") words.push(wordOf(t, rc));
    else if (t.type === "group") words.push(groupWord(t, rc));
  }
  const text = render(tokens);
  return emit({ shell: "powershell", words, text, writes, stdin, pipeline: render(statement) }, rc)
    .out;
}

/** An expression statement (`'ls' | iex`, `(New-Object Net.WebClient).DownloadString(…)`). */
function expression(tokens: PsToken[], rc: ReadContext): Source {
  const text = render(tokens);
  const writes = redirectTargets(tokens, rc);
  if (writes.length > 0) emit({ shell: "powershell", words: [], text, writes, stdin: null }, rc);
  const inner = readGroups(tokens, rc);
  for (const c of dotnetCommands(text)) rc.read(c.text, c.shell, {});
  const words = tokens.filter((t) => t.type === "word").map((t) =>
    wordOf(t as PsToken & { type: "word" }, rc)
  );
  if (NETWORK.test(text)) return { kind: "network", detail: text };
  if (DECODE.test(text)) return { kind: "decoded", detail: text };
  if (tokens.length === 1 && words.length === 1 && words[0].literal) {
    return literal(words[0].text, "powershell");
  }
  return worst([...words.flatMap((w) => w.sources), ...(inner ? [inner] : [])]) ??
    { kind: "program", detail: text };
}

/** Targets of `>` and `>>` in a token list. */
function redirectTargets(tokens: PsToken[], rc: ReadContext): Word[] {
  const out: Word[] = [];
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    if (t.type === "op" && />/.test(t.op) && !/&\d$/.test(t.op) && next?.type === "word") {
      out.push(wordOf(next, rc));
    }
  });
  return out;
}

/** Reads the code inside every group of a statement; returns the last output. */
function readGroups(tokens: PsToken[], rc: ReadContext): Source | undefined {
  let out: Source | undefined;
  for (const t of tokens) {
    if (t.type === "group") out = readGroup(t, rc);
    else if (t.type === "word") wordOf(t, rc);
  }
  return out;
}

function readGroup(t: PsToken & { type: "group" }, rc: ReadContext): Source | undefined {
  if (t.open === "@{") {
    return readGroups(lexPowerShell(t.inner).filter((x) => x.type === "group"), rc);
  }
  return readPowerShell(t.inner, rc);
}

function groupWord(t: PsToken & { type: "group" }, rc: ReadContext): Word {
  const out = readGroup(t, rc);
  if (t.open === "{") return { text: t.raw, literal: false, sources: [] };
  return { text: t.raw, literal: false, sources: out ? [out] : [] };
}

/** The value of a word token: variables substituted, subexpressions read as code. */
export function wordOf(t: PsToken & { type: "word" }, rc: ReadContext): Word {
  let text = "";
  let literalValue = true;
  const sources: Source[] = [];
  for (const p of t.parts) {
    const v = partValue(p, rc);
    text += v.text;
    literalValue &&= v.literal;
    if (v.source) sources.push(v.source);
  }
  return { text, literal: literalValue, sources };
}

function partValue(
  p: PsPart,
  rc: ReadContext,
): { text: string; literal: boolean; source?: Source } {
  switch (p.kind) {
    case "text":
      return { text: p.text, literal: true };
    case "var": {
      const value = variable(p.name, rc);
      const origin = rc.taint.get(scopeless(p.name)) ?? { kind: "variable", detail: "$" + p.name };
      return value === undefined
        ? { text: "$" + p.name, literal: false, source: origin }
        : { text: value, literal: true };
    }
    case "sub": {
      const out = readPowerShell(p.code, rc);
      return { text: `$(${p.code})`, literal: false, source: out };
    }
    case "expr": {
      const base = /^\$([\w:]+)/.exec(p.text)?.[1];
      const tainted = base ? rc.taint.get(scopeless(base.toLowerCase())) : undefined;
      const inner = worse(p.code === undefined ? undefined : readPowerShell(p.code, rc), tainted);
      const source: Source = NETWORK.test(p.text)
        ? { kind: "network", detail: p.text }
        : DECODE.test(p.text)
        ? { kind: "decoded", detail: p.text }
        : worse({ kind: "program", detail: p.text }, inner)!;
      return { text: p.text, literal: false, source };
    }
  }
}

function variable(name: string, rc: ReadContext): string | undefined {
  const n = scopeless(name);
  if (n.startsWith("env:")) return windowsEnv(n.slice(4), rc.rules) ?? rc.vars.get(n);
  if (n === "home") return rc.rules.home;
  if (n === "pwd") return rc.rules.cwd;
  if (n === "null") return "";
  return rc.vars.get(n);
}

function scopeless(name: string): string {
  return name.replace(/^(global|script|local|private|using):/, "");
}

/** The unquoted text of a word that is a plain bareword, else null. */
function plainText(t: PsToken & { type: "word" }): string | null {
  const p = t.parts[0];
  return p?.kind === "text" && !p.quoted
    ? t.parts.map((x) => (x.kind === "text" ? x.text : "")).join("")
    : null;
}

function render(tokens: PsToken[]): string {
  return tokens.map((t) => (t.type === "op" ? t.op : t.raw)).join(" ").trim();
}
