/**
 * Destructive calls in interpreter one-liners (`python -c`, `node -e`,
 * `perl -e`, `ruby -e`, `php -r`, `deno eval`), turned into the shell
 * commands that do the same, so the delete rules judge them:
 *
 * - recursive deletes: `shutil.rmtree(p)`, `fs.rmSync(p, {recursive})`,
 *   `fs.rm`, `fs.promises.rm`, `rmdirSync(p, {recursive})`, `Deno.remove`,
 *   `File::Path::rmtree`/`remove_tree`, `FileUtils.rm_rf`/`rm_r`/`remove_dir`;
 * - file deletes: `os.remove`, `os.unlink`, `fs.unlinkSync`, `unlink`,
 *   `File.delete`, `Path(p).unlink()`;
 * - commands in argument lists: `subprocess.run(["rm", "-rf", p])`,
 *   `execFileSync("rm", ["-rf", p])`, and Perl's `q{…}`/`qq{…}` strings
 *   given to `system`/`exec`, `qx{…}`, Ruby's `%x{…}`.
 *
 * The path may be a string or the home folder (`process.env.HOME`,
 * `os.homedir()`, `os.environ['HOME']`, `os.path.expanduser('~')`,
 * `Path.home()`, `$ENV{HOME}`, `ENV['HOME']`, `Dir.home`); anything else is
 * left to the sandbox.
 *
 * @module
 */

/** One equivalent shell command, in bash and in PowerShell. */
export interface LibraryCommand {
  bash: string;
  powershell: string;
  /** A command string the program hands to a shell (`system q{…}`): read as bash, as nested.ts does. */
  shellString?: boolean;
}

const STR = `(?:'([^'\\n]*)'|"([^"\\n]*)"|\`([^\`\\n]*)\`)`;
const HOME_EXPR = new RegExp(
  "^(?:process\\.env\\.(?:HOME|USERPROFILE)|process\\.env\\[['\"](?:HOME|USERPROFILE)['\"]\\]|" +
    "(?:os|require\\(['\"](?:node:)?os['\"]\\))\\.homedir\\(\\)|os\\.environ\\[['\"]HOME['\"]\\]|" +
    "os\\.environ\\.get\\(['\"]HOME['\"]\\)|os\\.getenv\\(['\"]HOME['\"]\\)|" +
    "os\\.path\\.expanduser\\(['\"]~['\"]\\)|(?:pathlib\\.)?Path\\.home\\(\\)|\\$ENV\\{HOME\\}|" +
    "ENV\\[['\"]HOME['\"]\\]|Dir\\.home|Deno\\.env\\.get\\(['\"]HOME['\"]\\)|['\"]~['\"])$",
);

/** Calls that delete a tree; the first argument is the path. */
const RECURSIVE = [
  /shutil\.rmtree/g,
  /\b(?:rmSync|promises\.rm|fsp\.rm|fs\.rm|rimraf(?:\.sync)?|removeSync|fse\.remove)(?=\s*\()/g,
  /\b(?:rmdirSync|Deno\.removeSync|Deno\.remove)(?=\s*\([^)]*recursive)/g,
  /\b(?:File::Path::)?(?:rmtree|remove_tree)/g,
  /FileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry|rmtree)/g,
];
/** Calls that delete one file or an empty folder. */
const SINGLE = [
  /\bos\.(?:remove|unlink|rmdir|removedirs)/g,
  /\b(?:unlinkSync|rmdirSync|unlink|rmdir)(?=\s*\()/g,
  /File\.(?:delete|unlink)/g,
];
/** `run(["rm", "-rf", p])`, `execFileSync("rm", ["-rf", p])`. */
const ARG_LIST =
  /\b(?:run|call|check_call|check_output|Popen|spawnSync|spawn|execFileSync|execFile|system|exec)\(\s*(?:(["'])(\w[\w.-]*)\1\s*,\s*)?\[([^\]]*)\]/g;
/** Perl `system q{…}`, `qx{…}`, Ruby `%x{…}`. */
const PERL_Q = /(?:\b(?:system|exec)\s*\(?\s*qq?|\bqx|%x)\s*([{(\[<!|\/])/g;
const CLOSE: Record<string, string> = { "{": "}", "(": ")", "[": "]", "<": ">" };

/** The shell commands the destructive calls in `code` amount to. */
export function libraryCommands(code: string): LibraryCommand[] {
  const out: LibraryCommand[] = [];
  const add = (bash: string | null, ps: string | null, shellString = false) => {
    if (bash && ps) out.push({ bash, powershell: ps, shellString });
  };
  for (
    const [list, bash, ps] of [
      [RECURSIVE, "rm -rf --", "Remove-Item -Recurse -Force -LiteralPath"],
      [SINGLE, "rm -f --", "Remove-Item -Force -LiteralPath"],
    ] as const
  ) {
    for (const re of list) {
      for (const m of code.matchAll(re)) {
        const p = pathOf(firstArgument(code, m.index! + m[0].length));
        if (p !== null) add(`${bash} ${q(p)}`, `${ps} ${q(p)}`);
      }
    }
  }
  for (const m of code.matchAll(/Path\(([^()]*(?:\([^()]*\))?[^()]*)\)\.(?:unlink|rmdir)\(/g)) {
    const p = pathOf(m[1]);
    if (p !== null) add(`rm -f -- ${q(p)}`, `Remove-Item -Force -LiteralPath ${q(p)}`);
  }
  for (const m of code.matchAll(ARG_LIST)) {
    const items = [...m[3].matchAll(new RegExp(STR, "g"))].map((x) => x[1] ?? x[2] ?? x[3]);
    const words = [...(m[2] ? [m[2]] : []), ...items];
    if (words.length > 0) add(words.map(q).join(" "), words.map(q).join(" "), true);
  }
  for (const m of code.matchAll(PERL_Q)) {
    const open = m[1];
    const start = m.index! + m[0].length;
    const end = code.indexOf(CLOSE[open] ?? open, start);
    if (end > start) add(code.slice(start, end), code.slice(start, end), true);
  }
  return out;
}

/** The first argument of a call whose name ends at `at`: `(a, b)` → `a`; `name a;` → `a`. */
function firstArgument(code: string, at: number): string {
  let i = at;
  while (code[i] === " ") i++;
  const paren = code[i] === "(";
  if (paren) i++;
  let depth = 0;
  let quote = "";
  const start = i;
  for (; i < code.length; i++) {
    const c = code[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === "'" || c === '"' || c === "`") quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
    else if (depth === 0 && (c === "," || c === ")" || (!paren && (c === ";" || c === "\n")))) {
      break;
    }
  }
  return code.slice(start, i);
}

/** A literal path or the home folder; null when the expression is not known. */
function pathOf(expr: string): string | null {
  const e = expr.trim();
  if (HOME_EXPR.test(e)) return "~";
  const expanded = new RegExp(`^os\\.path\\.expanduser\\(\\s*${STR}\\s*\\)$`).exec(e);
  const s = expanded ?? new RegExp(`^${STR}$`).exec(e);
  const text = s ? s[1] ?? s[2] ?? s[3] : null;
  return text === null || text.includes("'") ? null : text;
}

/** Quotes a word for bash and PowerShell alike (single quotes); `~` stays bare so it expands. */
function q(word: string): string {
  if (/^~(\/[\w./-]*)?$/.test(word)) return word;
  return `'${word.replaceAll("'", "")}'`;
}
