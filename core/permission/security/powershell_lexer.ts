/**
 * A PowerShell tokenizer good enough to find commands: barewords, quoted
 * and here-strings, variables, `$(…)` subexpressions, `(…)` and `{…}` groups,
 * operators and redirections, comments, backtick escapes.
 *
 * @module
 */

/** A piece of a PowerShell word. */
export type PsPart =
  | { kind: "text"; text: string; quoted: boolean }
  | { kind: "var"; name: string }
  | { kind: "sub"; code: string }
  | { kind: "expr"; text: string; code?: string };

/** A PowerShell token. */
export type PsToken =
  | { type: "word"; parts: PsPart[]; raw: string }
  | { type: "op"; op: string }
  | { type: "group"; open: "(" | "$(" | "@(" | "{" | "@{"; inner: string; raw: string };

const SMART: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
};
const BACKTICK: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};
const WORD_END = /[\s;|&(){},<>]/;
/** Set when a string or group runs to the end of the text. */
let unterminated = false;
const MEMBER = /^(::|\.)[A-Za-z_]\w*/;
const REDIRECT = /^(?:[1-6*]?>>?(?:&[12])?|<)/;

/**
 * Splits PowerShell text into tokens.
 *
 * @example
 * ```ts
 * lexPowerShell("Remove-Item -Recurse C:\\x; iex 'ls'").map((t) => t.type);
 * // ["word", "word", "word", "op", "word", "word"]
 * ```
 */
export function lexPowerShell(source: string): PsToken[] {
  return lexChecked(source).tokens;
}

/** Like {@link lexPowerShell}, also telling whether a quote or bracket was left open. */
export function lexChecked(source: string): { tokens: PsToken[]; unterminated: boolean } {
  unterminated = false;
  const s = source.replace(/[\u2018-\u201E\u2013-\u2015]/g, (c) => SMART[c] ?? c);
  const out: PsToken[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    const two = s.slice(i, i + 2);
    if (c === " " || c === "\t" || c === "\f") i++;
    else if (c === "`" && (s[i + 1] === "\n" || s[i + 1] === "\r")) i += 2;
    else if (two === "<#") i = indexAfter(s, "#>", i + 2);
    else if (c === "#") i = lineEnd(s, i);
    else if (c === "\n" || c === "\r") out.push({ type: "op", op: "\n" }), i++;
    else if (two === "&&" || two === "||") out.push({ type: "op", op: two }), i += 2;
    else if (c === ";" || c === "|" || c === "&" || c === ",") out.push({ type: "op", op: c }), i++;
    else if (c === "." && /\s/.test(s[i + 1] ?? " ") && atCommandStart(out)) {
      out.push({ type: "op", op: "." }), i++;
    } else if (c === "}" || c === ")") i++;
    else if (
      c === "(" || c === "{" ||
      ((c === "$" || c === "@") && (s[i + 1] === "(" || (c === "@" && s[i + 1] === "{")))
    ) {
      i = group(s, i, out);
    } else if (REDIRECT.test(s.slice(i, i + 5))) {
      const op = REDIRECT.exec(s.slice(i, i + 5))![0];
      out.push({ type: "op", op });
      i += op.length;
    } else if (
      c === "=" || (/[-+*/%]/.test(c) && s[i + 1] === "=" && out.at(-1)?.type === "word")
    ) {
      const op = c === "=" ? "=" : two;
      out.push({ type: "op", op });
      i += op.length;
    } else i = word(s, i, out);
  }
  return { tokens: out, unterminated };
}

function group(s: string, i: number, out: PsToken[]): number {
  const open = (s[i] === "(" || s[i] === "{" ? s[i] : s.slice(i, i + 2)) as
    | "("
    | "$("
    | "@("
    | "{"
    | "@{";
  const start = i + open.length;
  const end = skipGroup(s, start - 1);
  const inner = s.slice(start, Math.max(start, end - 1));
  if (open !== "{" && open !== "@{" && MEMBER.test(s.slice(end))) {
    const after = memberChain(s, end);
    out.push({
      type: "word",
      parts: [{ kind: "expr", text: s.slice(i, after), code: inner }],
      raw: s.slice(i, after),
    });
    return after;
  }
  out.push({ type: "group", open, inner, raw: s.slice(i, end) });
  return end;
}

/** The index after a chain of `.Member`, `::Member`, `(args)` and `[index]`. */
function memberChain(s: string, j: number): number {
  while (j < s.length && (MEMBER.test(s.slice(j)) || s[j] === "(" || s[j] === "[")) {
    if (s[j] === "(" || s[j] === "[") j = skipGroup(s, j);
    else j += MEMBER.exec(s.slice(j))![0].length;
  }
  return j;
}

/** From the opening bracket at `i`, the index after its matching close. */
export function skipGroup(s: string, i: number): number {
  const open = s[i];
  const close = open === "(" ? ")" : open === "{" ? "}" : "]";
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s[j];
    if (c === "`") j++;
    else if (c === "'") j = skipSingle(s, j) - 1;
    else if (c === '"') j = skipDouble(s, j) - 1;
    else if (c === "#" && (j === 0 || /\s/.test(s[j - 1]))) j = lineEnd(s, j) - 1;
    else if (c === open) depth++;
    else if (c === close && --depth === 0) return j + 1;
  }
  unterminated = true;
  return s.length;
}

function skipSingle(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === "'" && s[j + 1] === "'") j++;
    else if (s[j] === "'") return j + 1;
  }
  unterminated = true;
  return s.length;
}

function skipDouble(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === "`") j++;
    else if (s[j] === '"' && s[j + 1] === '"') j++;
    else if (s[j] === "$" && s[j + 1] === "(") j = skipGroup(s, j + 1) - 1;
    else if (s[j] === '"') return j + 1;
  }
  unterminated = true;
  return s.length;
}

/** An assignment operator right after a variable (`=`, `+=`, …; not `==`). */
const ASSIGNS = /^[-+*/%]?=(?!=)/;

function word(s: string, i: number, out: PsToken[]): number {
  const parts: PsPart[] = [];
  const start = i;
  const text = (t: string, quoted: boolean) => parts.push({ kind: "text", text: t, quoted });
  while (i < s.length && !WORD_END.test(s[i])) {
    const c = s[i];
    if (
      (c === "@") && (s[i + 1] === "'" || s[i + 1] === '"') && /^@['"][ \t]*\r?\n/.test(s.slice(i))
    ) {
      const close = s[i + 1] + "@";
      const bodyStart = s.indexOf("\n", i) + 1;
      const end = s.indexOf("\n" + close, bodyStart - 1);
      const body = s.slice(bodyStart, end < 0 ? s.length : end).replace(/\r$/, "");
      if (s[i + 1] === "'") text(body, true);
      else parts.push(...doubleParts(body));
      i = end < 0 ? s.length : end + 1 + close.length;
    } else if (c === "'") {
      const end = skipSingle(s, i);
      text(s.slice(i + 1, end - 1).replaceAll("''", "'"), true);
      i = end;
    } else if (c === '"') {
      const end = skipDouble(s, i);
      parts.push(...doubleParts(s.slice(i + 1, end - 1)), { kind: "text", text: "", quoted: true });
      i = end;
    } else if (c === "$" && s[i + 1] === "(") {
      const end = skipGroup(s, i + 1);
      parts.push({ kind: "sub", code: s.slice(i + 2, end - 1) });
      i = end;
    } else if (c === "$" || (c === "[" && i === start)) {
      i = variableOrExpr(s, i, parts);
      // `$x="…"` at a statement's start is an assignment, as `$x = "…"` is.
      if (
        i > start && parts.length === 1 && ASSIGNS.test(s.slice(i, i + 3)) && atCommandStart(out)
      ) {
        break;
      }
    } else if (c === "`" && i + 1 < s.length) {
      text(s[i + 1], false), i += 2;
    } else text(c, false), i++;
  }
  if (i === start) i++;
  out.push({ type: "word", parts: merge(parts), raw: s.slice(start, i) });
  return i;
}

function variableOrExpr(s: string, i: number, parts: PsPart[]): number {
  let j = i;
  let name = "";
  if (s[i] === "[") j = skipGroup(s, i);
  else if (s[i + 1] === "{") {
    j = s.indexOf("}", i);
    j = j < 0 ? s.length : j + 1;
    name = s.slice(i + 2, j - 1);
  } else {
    const m = /^\$([\w:?^$]+|_)/.exec(s.slice(i));
    if (!m) {
      parts.push({ kind: "text", text: "$", quoted: false });
      return i + 1;
    }
    name = m[1].replace(/:$/, "");
    j = i + m[0].length;
  }
  const expr = s[i] === "[" || MEMBER.test(s.slice(j)) || s[j] === "[";
  if (expr) j = memberChain(s, j);
  parts.push(
    expr ? { kind: "expr", text: s.slice(i, j) } : { kind: "var", name: name.toLowerCase() },
  );
  return j;
}

/** Parts of the body of a double-quoted string. */
function doubleParts(body: string): PsPart[] {
  const parts: PsPart[] = [];
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    if (c === "`" && i + 1 < body.length) {
      parts.push({ kind: "text", text: BACKTICK[body[i + 1]] ?? body[i + 1], quoted: true });
      i += 2;
    } else if (c === '"' && body[i + 1] === '"') {
      parts.push({ kind: "text", text: '"', quoted: true }), i += 2;
    } else if (c === "$" && body[i + 1] === "(") {
      const end = skipGroup(body, i + 1);
      parts.push({ kind: "sub", code: body.slice(i + 2, end - 1) });
      i = end;
    } else if (c === "$" && /[\w{:?]/.test(body[i + 1] ?? "")) {
      const m = /^\$(\{[^}]*\}|[\w:]+)/.exec(body.slice(i))!;
      parts.push({
        kind: "var",
        name: m[1].replace(/^\{|\}$/g, "").replace(/:$/, "").toLowerCase(),
      });
      i += m[0].length;
    } else parts.push({ kind: "text", text: c, quoted: true }), i++;
  }
  return merge(parts);
}

function merge(parts: PsPart[]): PsPart[] {
  const out: PsPart[] = [];
  for (const p of parts) {
    const last = out.at(-1);
    if (p.kind === "text" && last?.kind === "text" && last.quoted === p.quoted) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}

function lineEnd(s: string, i: number): number {
  const n = s.indexOf("\n", i);
  return n < 0 ? s.length : n;
}

function indexAfter(s: string, needle: string, from: number): number {
  const n = s.indexOf(needle, from);
  return n < 0 ? s.length : n + needle.length;
}

/** Dot-sourcing (`. ./x.ps1`) only starts a command; elsewhere `.` is an argument (`git add .`). */
function atCommandStart(out: readonly PsToken[]): boolean {
  const last = out.at(-1);
  return last === undefined || (last.type === "op" && /^(\n|;|\||&&|\|\||&)$/.test(last.op));
}
