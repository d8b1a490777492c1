/**
 * Resolving command arguments to paths and telling protected paths (the
 * root, system directories, the home directory and its entries, drive roots)
 * from paths inside the working directory. POSIX and Windows spellings are
 * both understood, whatever the platform.
 *
 * @module
 */
import type { RuleContext, Word } from "./types.ts";

/** Where a path argument points. */
export type PathClass = "protected" | "inside" | "outside" | "unknown";

/** A resolved path: `/`-separated, Windows paths lower-cased (`c:/windows`). */
interface Resolved {
  /** Root: `/`, `c:/` or `//server/share/`. */
  root: string;
  parts: string[];
}

/** Directories protected with everything below them. */
const DEEP_POSIX = [
  "/etc",
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/boot",
  "/system",
  "/proc",
  "/sys",
  "/dev",
  "/private/etc",
];
/** Directories protected themselves and in their direct entries. */
const SHALLOW_POSIX = [
  "/home",
  "/users",
  "/root",
  "/var",
  "/opt",
  "/srv",
  "/mnt",
  "/media",
  "/volumes",
  "/applications",
  "/library",
  "/private",
  "/snap",
  "/run",
];
/** Directories protected themselves (and all their entries at once), not one entry. */
const SELF_POSIX = ["/tmp", "/var/tmp", "/private/tmp", "/dev/shm"];
const DEEP_WINDOWS = ["windows", "program files", "program files (x86)"];
const SHALLOW_WINDOWS = ["users", "programdata"];
const GLOB = /[*?[]/;

/**
 * Classifies one path argument of a delete or permission change.
 *
 * @example
 * ```ts
 * classifyPath(word("~/"), { cwd: "/home/me/p", home: "/home/me" }); // "protected"
 * classifyPath(word("node_modules"), { cwd: "/home/me/p", home: "/home/me" }); // "inside"
 * ```
 */
export function classifyPath(word: Word, ctx: RuleContext): PathClass {
  if (!word.literal) return "unknown";
  let worst: PathClass = "inside";
  for (const text of expandBraces(word.text)) {
    const c = classifyText(text, ctx);
    if (rank(c) > rank(worst)) worst = c;
  }
  return worst;
}

/** Whether a path argument lies in a system directory (`/etc`, `C:\Windows`, …). */
export function isSystemPath(word: Word, ctx: RuleContext): boolean {
  if (!word.literal) return false;
  const cwd = resolve(ctx.project ?? ctx.cwd, ctx);
  return expandBraces(word.text).some((t) => {
    const r = resolve(t, ctx);
    if (r === null || (cwd && strictlyInside(r, cwd, false))) return false;
    return inDeep(r) && !under(r, "/usr/local");
  });
}

/** The resolved `/`-separated form of a literal path argument, or null. */
export function resolvedPath(text: string, ctx: RuleContext): string | null {
  const r = resolve(text, ctx);
  return r === null ? null : show(r);
}

function rank(c: PathClass): number {
  return { inside: 0, outside: 1, unknown: 2, protected: 3 }[c];
}

function classifyText(text: string, ctx: RuleContext): PathClass {
  const r = resolve(text, ctx);
  if (r === null) return "unknown";
  const glob = r.parts.findIndex((p) => GLOB.test(p));
  const base: Resolved = glob < 0 ? r : { root: r.root, parts: r.parts.slice(0, glob) };
  const home = resolve(ctx.home, ctx);
  const cwd = resolve(ctx.project ?? ctx.cwd, ctx);
  if (glob < 0 && cwd && same(base, cwd) && !critical(cwd, home)) return "outside";
  if (glob >= 0 ? entriesProtected(base, home) : selfProtected(base, home)) return "protected";
  if (cwd && strictlyInside(base, cwd, glob >= 0)) return "inside";
  if (inDeep(base)) return "protected";
  return "outside";
}

/** The working directory itself is one that must never go: root, home, system directories. */
function critical(p: Resolved, home: Resolved | null): boolean {
  return p.parts.length === 0 || (home !== null && same(p, home)) || isShallow(p) || isSelf(p) ||
    inDeep(p) || isHomeDir(p);
}

/** The path itself is protected. */
function selfProtected(p: Resolved, home: Resolved | null): boolean {
  if (p.parts.length === 0) return true;
  if (home && (same(p, home) || isEntryOf(p, home))) return true;
  const parent: Resolved = { root: p.root, parts: p.parts.slice(0, -1) };
  if (isShallow(p) || isSelf(p) || isShallow(parent)) return true;
  if (parent.parts.length === 0) return true;
  return isHomeDir(p);
}

/** Every entry of the path is targeted (a glob): protected when the path holds protected entries. */
function entriesProtected(p: Resolved, home: Resolved | null): boolean {
  if (p.parts.length === 0 || (home && same(p, home))) return true;
  return isShallow(p) || isSelf(p) || isHomeDir(p);
}

function isShallow(p: Resolved): boolean {
  if (p.root === "/") return SHALLOW_POSIX.includes(show(p).toLowerCase());
  return p.parts.length === 1 && SHALLOW_WINDOWS.includes(p.parts[0]);
}

function isSelf(p: Resolved): boolean {
  return p.root === "/" && SELF_POSIX.includes(show(p).toLowerCase());
}

function isHomeDir(p: Resolved): boolean {
  if (p.parts.length !== 2) return false;
  return p.root === "/"
    ? ["home", "users"].includes(p.parts[0].toLowerCase())
    : p.parts[0] === "users";
}

function inDeep(p: Resolved): boolean {
  if (p.root === "/") return DEEP_POSIX.some((d) => under(p, d, true));
  return p.parts.length > 0 && DEEP_WINDOWS.includes(p.parts[0]);
}

function under(p: Resolved, dir: string, fold = false): boolean {
  const s = fold ? show(p).toLowerCase() : show(p);
  return s === dir || s.startsWith(dir.endsWith("/") ? dir : dir + "/");
}

function same(a: Resolved, b: Resolved): boolean {
  return show(a) === show(b);
}

function isEntryOf(p: Resolved, dir: Resolved): boolean {
  return p.parts.length === dir.parts.length + 1 && under(p, show(dir));
}

function strictlyInside(p: Resolved, dir: Resolved, orSelfWithGlob: boolean): boolean {
  if (orSelfWithGlob && same(p, dir)) return true;
  return p.parts.length > dir.parts.length && under(p, show(dir));
}

function show(r: Resolved): string {
  return r.root + r.parts.join("/");
}

/** Resolves `text` against the working directory; `~` is the home directory. */
function resolve(text: string, ctx: RuleContext): Resolved | null {
  let t = text.trim();
  if (t === "") return null;
  if (t === "~" || t.startsWith("~/") || t.startsWith("~\\")) t = ctx.home + t.slice(1);
  else if (/^~[a-z_][\w.-]*/i.test(t)) t = parentOf(ctx.home) + "/" + t.slice(1);
  t = t.replace(/^\\\\[?.]\\/, "").replace(/^(Microsoft\.PowerShell\.Core\\)?FileSystem::/i, "");
  if (ctx.cwd === "" && !isAbsolute(t) && !isWindows(t)) return null;
  if (isWindows(t) || (!isAbsolute(t) && isWindows(ctx.cwd))) return resolveWindows(t, ctx.cwd);
  const full = t.startsWith("/") ? t : ctx.cwd + "/" + t;
  return { root: "/", parts: normalise(full.split("/")) };
}

function resolveWindows(text: string, cwd: string): Resolved {
  const t = text.replaceAll("\\", "/").toLowerCase();
  const unc = /^\/\/([^/]+)\/([^/]+)(.*)$/.exec(t);
  if (unc) {
    return { root: `//${unc[1]}/${unc[2]}/`.toLowerCase(), parts: normalise(unc[3].split("/")) };
  }
  const drive = /^([a-z]):(.*)$/i.exec(t);
  if (drive) return { root: drive[1].toLowerCase() + ":/", parts: normalise(drive[2].split("/")) };
  const base = resolveWindows(cwd, "c:/");
  if (t.startsWith("/")) return { root: base.root, parts: normalise(t.split("/")) };
  return { root: base.root, parts: normalise([...base.parts, ...t.split("/")]) };
}

function normalise(parts: string[]): string[] {
  const out: string[] = [];
  for (const p of parts) {
    if (p === "" || p === ".") continue;
    if (p === "..") out.pop();
    else out.push(p);
  }
  return out;
}

function isWindows(t: string): boolean {
  return /^[a-z]:/i.test(t) || t.startsWith("\\\\") || t.startsWith("//");
}

function isAbsolute(t: string): boolean {
  return t.startsWith("/") || t.startsWith("\\");
}

function parentOf(path: string): string {
  const t = path.replaceAll("\\", "/").replace(/\/+$/, "");
  return t.slice(0, Math.max(t.lastIndexOf("/"), 0)) || "/";
}

/** Expands `{a,b}` brace lists (bash), at most 32 results. */
export function expandBraces(text: string): string[] {
  const m = /\{([^{}]*,[^{}]*)\}/.exec(text);
  if (!m) return [text];
  const out: string[] = [];
  for (const alt of m[1].split(",")) {
    out.push(...expandBraces(text.slice(0, m.index) + alt + text.slice(m.index + m[0].length)));
    if (out.length >= 32) break;
  }
  return out.slice(0, 32);
}
