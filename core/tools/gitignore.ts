/**
 * `.gitignore` rules as git applies them: every directory's file speaks for
 * the paths below it, deeper files take precedence, and within a file the
 * last matching pattern wins (negations included). Built on the `ignore`
 * package, which is given paths relative to each file's directory only.
 *
 * @example
 * ```ts
 * const chain = await ancestorRules(realFs, "/repo/src", "/repo");
 * isIgnored(chain, "/repo/src/gen", true);
 * ```
 * @module
 */
import ignore from "ignore";
import { dirname, join, relative, sep } from "node:path";
import type { FsPort } from "../../interfaces/tool.ts";
import { isInside } from "./paths.ts";
import { reachable } from "./fs_port.ts";
import { readTextFileSync, TEXT_FILE_MAX_BYTES } from "./bounded_read.ts";

/** Directory names no walk ever enters, whatever the ignore files say. */
export const ALWAYS_SKIPPED: ReadonlySet<string> = new Set([".git", "node_modules"]);

/** The rules of one `.gitignore` and the directory it sits in (absolute). */
export interface IgnoreRules {
  dir: string;
  matcher: ReturnType<typeof ignore>;
  /**
   * No pattern has a slash (other than a trailing one), so only the base
   * name decides. Testing the name alone is much faster: the matcher then
   * has no parent directories to check and its cache stays small.
   */
  byName: boolean;
  /** Verdicts by name (`name` or `name/`) when `byName`: 0 no opinion, 1 ignored, 2 re-included. */
  memo: Map<string, 0 | 1 | 2>;
}

/** Rules in effect for a directory, shallowest first. */
export type RuleChain = readonly IgnoreRules[];

/** Rules from the text of the `.gitignore` in `dir`. */
export function parseRules(dir: string, text: string): IgnoreRules {
  return { dir, matcher: ignore().add(text), byName: namesOnly(text), memo: new Map() };
}

function namesOnly(text: string): boolean {
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const body = (line.startsWith("!") ? line.slice(1) : line).replace(/\/+$/, "");
    if (body.includes("/")) return false;
  }
  return true;
}

/**
 * Whether `abs` (named `name`, a directory when `isDir`) is ignored by
 * `chain`; the deepest file with an opinion decides. The walk has already
 * decided about the parent directories.
 */
export function isIgnored(chain: RuleChain, abs: string, name: string, isDir: boolean): boolean {
  for (let i = chain.length - 1; i >= 0; i--) {
    const rules = chain[i];
    const verdict = rules.byName
      ? byName(rules, isDir ? name + "/" : name)
      : byPath(rules, abs, isDir);
    if (verdict !== 0) return verdict === 1;
  }
  return false;
}

function byName(rules: IgnoreRules, key: string): 0 | 1 | 2 {
  let v = rules.memo.get(key);
  if (v === undefined) {
    const t = rules.matcher.test(key);
    v = t.ignored ? 1 : t.unignored ? 2 : 0;
    if (rules.memo.size < 100_000) rules.memo.set(key, v);
  }
  return v;
}

function byPath(rules: IgnoreRules, abs: string, isDir: boolean): 0 | 1 | 2 {
  const rel = relTo(rules.dir, abs);
  if (rel === "") return 0;
  const t = rules.matcher.test(isDir ? rel + "/" : rel);
  return t.ignored ? 1 : t.unignored ? 2 : 0;
}

/**
 * The chain to use inside directory `dir`, which the walk decided to enter.
 * A file whose rules exclude `dir` (re-included by a deeper file, or asked
 * for explicitly) would answer for the directory instead of the paths below
 * it, so it is dropped there.
 */
export function narrowChain(chain: RuleChain, dir: string): RuleChain {
  let out: IgnoreRules[] | null = null;
  for (let i = 0; i < chain.length; i++) {
    const rules = chain[i];
    const rel = relTo(rules.dir, dir);
    const drop = !rules.byName && rel !== "" && rules.matcher.test(rel + "/").ignored;
    if (drop && !out) out = chain.slice(0, i);
    else if (!drop && out) out.push(rules);
  }
  return out ?? chain;
}

/**
 * Rules from the `.gitignore` files above `root`, up to the repository root
 * (the nearest directory holding `.git`); outside a repository, only those
 * inside `cwd`. The `.gitignore` of `root` itself is read by the walk.
 */
export async function ancestorRules(fs: FsPort, root: string, cwd: string): Promise<RuleChain> {
  const above: string[] = [];
  let repo = false;
  for (let d = root, i = 0; i < 64; i++) {
    if (await reachable(fs, join(d, ".git"))) {
      repo = true;
      break;
    }
    const parent = dirname(d);
    if (parent === d) break;
    d = parent;
    above.push(d);
  }
  const dirs = (repo ? above : above.filter((d) => isInside(cwd, d))).reverse();
  let chain: RuleChain = [];
  for (const dir of dirs) {
    chain = narrowChain(chain, dir);
    const text = await readIgnoreFile(fs, dir);
    if (text !== null) chain = [...chain, parseRules(dir, text)];
  }
  return narrowChain(chain, root);
}

/** The text of `dir/.gitignore`, or null when there is none or it cannot be read. */
export async function readIgnoreFile(fs: FsPort, dir: string): Promise<string | null> {
  const path = join(dir, ".gitignore");
  try {
    if (!(await reachable(fs, path))) return null;
    const info = await fs.stat(path);
    if (!info?.isFile) return null;
    const bytes = await fs.readFile(path, { maxBytes: TEXT_FILE_MAX_BYTES });
    return bytes.length > TEXT_FILE_MAX_BYTES ? null : new TextDecoder().decode(bytes);
  } catch {
    return null;
  }
}

/** {@link readIgnoreFile} on the real disk, synchronously (for walks that read it directly). */
export function readIgnoreSync(dir: string): string | null {
  try {
    return readTextFileSync(join(dir, ".gitignore"));
  } catch {
    return null;
  }
}

/** `abs` relative to `dir` with `/` separators; `""` for `dir` itself. */
export function relTo(dir: string, abs: string): string {
  let rel: string;
  if (abs.startsWith(dir) && abs.charAt(dir.length) === sep) rel = abs.slice(dir.length + 1);
  else if (abs === dir) return "";
  else rel = relative(dir, abs);
  return sep === "/" ? rel : rel.replaceAll(sep, "/");
}
