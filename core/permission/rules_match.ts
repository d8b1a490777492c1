/**
 * The matching half of permission rules: a small shell-word reader that
 * splits a command line into simple commands (or refuses, when the line has
 * constructs a word pattern cannot judge), word patterns with `*`, and path
 * globs relative to the project.
 *
 * @example
 * ```ts
 * splitCommand("npm test && git status"); // [["npm", "test"], ["git", "status"]]
 * matchWords("npm test *", ["npm", "test", "--watch"]); // true
 * matchGlob("src/**", "src/a/b.ts"); // true
 * ```
 * @module
 */

/** Why a command line cannot be matched by word patterns, or its simple commands. */
export type SplitResult =
  | { ok: true; segments: string[][] }
  | { ok: false; reason: string };

const SEPARATORS = [";", "&&", "||", "|&", "|", "&", "\n"];

/**
 * Splits a command line into simple commands (lists of unquoted words) at
 * `;`, `&&`, `||`, `|`, `&` and line breaks. Refuses command substitution,
 * subshells, groups, heredocs and redirections other than to `/dev/null` or
 * between descriptors (`2>&1`), and unterminated quotes.
 */
export function splitCommand(line: string): SplitResult {
  const segments: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endSegment = () => {
    endWord();
    if (words.length > 0) segments.push(words);
    words = [];
  };
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    const sepOp = line.startsWith("&>", i)
      ? undefined
      : SEPARATORS.find((s) => line.startsWith(s, i));
    if (sepOp) {
      endSegment();
      i += sepOp.length;
      continue;
    }
    if (ch === " " || ch === "\t" || ch === "\r") {
      endWord();
      i++;
      continue;
    }
    if (ch === "#" && word === null) {
      while (i < line.length && line[i] !== "\n") i++;
      continue;
    }
    if (ch === "`" || line.startsWith("$(", i)) return refuse("command substitution");
    if (ch === "(" || ch === ")") return refuse("a subshell");
    if (ch === ">" || ch === "<" || line.startsWith("&>", i)) {
      if (word !== null && /^\d+$/.test(word)) word = null; // a descriptor such as 2>
      endWord();
      const r = readRedirect(line, ch === "&" ? i + 1 : i);
      if (!r.ok) return r;
      i = r.next;
      continue;
    }
    const read = readWordPart(line, i);
    if (!read.ok) return read;
    word = (word ?? "") + read.text;
    i = read.next;
  }
  endSegment();
  for (const seg of segments) {
    if (seg.some((w) => w === "{" || w === "}")) return refuse("a command group");
  }
  return { ok: true, segments };
}

type Part = { ok: true; text: string; next: number } | { ok: false; reason: string };

function refuse(what: string): { ok: false; reason: string } {
  return { ok: false, reason: `it uses ${what}` };
}

/** Reads one piece of a word at `i`: a quoted string, an escape, or a plain run. */
function readWordPart(line: string, i: number): Part {
  const ch = line[i];
  if (ch === "'") {
    const end = line.indexOf("'", i + 1);
    if (end < 0) return refuse("an unterminated quote");
    return { ok: true, text: line.slice(i + 1, end), next: end + 1 };
  }
  if (ch === '"') return readDoubleQuoted(line, i + 1);
  if (ch === "\\") {
    if (line[i + 1] === "\n") return { ok: true, text: "", next: i + 2 };
    return { ok: true, text: line[i + 1] ?? "", next: i + 2 };
  }
  let j = i;
  while (j < line.length && !/[\s'"\\`;&|<>()#$]/.test(line[j])) j++;
  if (j === i) {
    // "$" not followed by "(" and "#" inside a word are plain characters
    if (ch === "$" || ch === "#") return { ok: true, text: ch, next: i + 1 };
    return refuse(`"${ch}" where a word was expected`);
  }
  return { ok: true, text: line.slice(i, j), next: j };
}

function readDoubleQuoted(line: string, start: number): Part {
  let text = "";
  let i = start;
  while (i < line.length) {
    const ch = line[i];
    if (ch === '"') return { ok: true, text, next: i + 1 };
    if (ch === "`" || line.startsWith("$(", i)) return refuse("command substitution");
    if (ch === "\\" && /["\\$`\n]/.test(line[i + 1] ?? "")) {
      if (line[i + 1] !== "\n") text += line[i + 1];
      i += 2;
      continue;
    }
    text += ch;
    i++;
  }
  return refuse("an unterminated quote");
}

/**
 * Reads a redirection at `i` (on `>` or `<`). Only harmless ones pass:
 * `>/dev/null`, `2>/dev/null`, `&>/dev/null`, `2>&1`, `>&2`.
 */
function readRedirect(
  line: string,
  i: number,
): { ok: true; next: number } | { ok: false; reason: string } {
  let j = i;
  const op = line.startsWith(">>", j) ? ">>" : line[j];
  j += op.length;
  if (op === "<") return refuse("input redirection");
  if (line[j] === "&") {
    const m = /^&(\d+)/.exec(line.slice(j));
    if (!m) return refuse("a redirection");
    return { ok: true, next: j + m[0].length };
  }
  while (line[j] === " " || line[j] === "\t") j++;
  const target = readWordPart(line, j);
  if (!target.ok) return target;
  if (target.text !== "/dev/null" || /[^\s;&|]/.test(line[target.next] ?? " ")) {
    return refuse("a redirection to a file");
  }
  return { ok: true, next: target.next };
}

/**
 * Whether `pattern` (words; a lone `*` matches any number of words, a `*`
 * inside a word matches any characters) matches the words of one command.
 */
export function matchWords(pattern: string | string[], words: readonly string[]): boolean {
  const p = typeof pattern === "string" ? patternWords(pattern) : pattern;
  if (p === null) return false;
  // reach[j]: the first i words can be matched by the first j pattern words
  let reach: boolean[] = Array(p.length + 1).fill(false);
  reach[0] = true;
  for (let j = 1; j <= p.length && p[j - 1] === "*"; j++) reach[j] = true;
  for (const w of words) {
    const next: boolean[] = Array(p.length + 1).fill(false);
    for (let j = 1; j <= p.length; j++) {
      const tok = p[j - 1];
      next[j] = tok === "*" ? next[j - 1] || reach[j] : reach[j - 1] && matchWord(tok, w);
    }
    reach = next;
  }
  return reach[p.length];
}

/** The words of a command pattern, or null when it is not one simple command. */
export function patternWords(pattern: string): string[] | null {
  const split = splitCommand(pattern);
  if (!split.ok || split.segments.length !== 1) return null;
  return split.segments[0];
}

function matchWord(token: string, word: string): boolean {
  if (!token.includes("*")) return token === word;
  const re = "^" + token.split("*").map(escapeRegExp).join(".*") + "$";
  return new RegExp(re, "s").test(word);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Whether a path glob matches `path` (both with `/` separators): `*` and `?`
 * stay within one segment, `**` spans any number of them, and `dir/**` also
 * matches `dir` itself. A leading `./` is ignored.
 */
export function matchGlob(glob: string, path: string, caseless = false): boolean {
  const g = normalizeSlashes(glob).replace(/^\.\//, "");
  const p = normalizeSlashes(path).replace(/^\.\//, "");
  return globRegExp(g, caseless).test(p);
}

/** Turns `\` into `/` and drops a trailing `/`. */
export function normalizeSlashes(path: string): string {
  const p = path.replace(/\\/g, "/");
  return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
}

function globRegExp(glob: string, caseless: boolean): RegExp {
  let re = "";
  let i = 0;
  while (i < glob.length) {
    if (glob.startsWith("/**", i) && i + 3 === glob.length) {
      re += "(?:/.*)?";
      i += 3;
    } else if (glob.startsWith("**/", i)) {
      re += "(?:.*/)?";
      i += 3;
    } else if (glob.startsWith("**", i)) {
      re += ".*";
      i += 2;
    } else if (glob[i] === "*") {
      re += "[^/]*";
      i++;
    } else if (glob[i] === "?") {
      re += "[^/]";
      i++;
    } else {
      re += escapeRegExp(glob[i]);
      i++;
    }
  }
  return new RegExp(`^${re}$`, caseless ? "is" : "s");
}

/**
 * A rough split for deny rules when {@link splitCommand} refuses a line:
 * every operator, bracket, backtick and redirection ends a segment, and
 * quotes are dropped. It over-splits on purpose: a deny pattern should find
 * `rm -rf x` inside `echo $(rm -rf x)`.
 */
export function looseSegments(line: string): string[][] {
  return line
    .replace(/\$\(|[`(){}<>;&|\n]/g, "\u0000")
    .split("\u0000")
    .map((s) => s.replace(/["']/g, "").trim().split(/\s+/).filter((w) => w !== ""))
    .filter((words) => words.length > 0);
}
