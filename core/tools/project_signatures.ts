/**
 * A file's outline for the bridge's browse mode: exported signatures or
 * headings found by simple per-language line rules (no parser), so a chat
 * can see what a file offers before asking for it.
 *
 * @example
 * ```ts
 * outline("a.ts", "export function add(a: number, b: number): number {\n  return a + b;\n}\n");
 * // ["export function add(a: number, b: number): number"]
 * ```
 * @module
 */

/** Lines kept per file. */
export const OUTLINE_MAX_LINES = 30;
/** Longest line kept (longer ones are cut with `…`). */
const MAX_LINE = 160;

type Rule = (line: string) => string | null;

const JS_DECL =
  /^export\s+(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|interface|type|enum|const|let|var|namespace)\b/;

const JS: Rule = (l) => {
  if (/^export\s+(?:\*|\{|type\s+\{)/.test(l)) return l.trim();
  if (!JS_DECL.test(l) && !/^export\s+default\b/.test(l) && !/^module\.exports\b/.test(l)) {
    return null;
  }
  if (l.includes("=>")) return head(l, /\s*=>\s*\{?\s*$/);
  return head(l, /\s*(?:\{\s*$|=\s*[^>].*$|;\s*$)/);
};

const PY: Rule = (l) =>
  /^(?:async\s+def|def|class)\s+[A-Za-z_]/.test(l) && !/^(?:async\s+def|def|class)\s+_/.test(l)
    ? head(l, /\s*:\s*(#.*)?$/)
    : null;

const GO: Rule = (l) =>
  /^func\s+(?:\([^)]*\)\s*)?[A-Z]/.test(l) || /^type\s+[A-Z]\w*\s/.test(l)
    ? head(l, /\s*\{\s*$/)
    : null;

const RUST: Rule = (l) =>
  /^pub(?:\([^)]*\))?\s+(?:async\s+)?(?:unsafe\s+)?(?:fn|struct|enum|trait|type|mod|const|static|use)\b/
      .test(l)
    ? head(l, /\s*(?:\{\s*$|;\s*$)/)
    : null;

const JVM: Rule = (l) =>
  /^\s*public\s+(?!.*=)[^;]*[({]\s*$/.test(l) ||
    /^\s*public\s+(?:\w+\s+)*(?:class|interface|enum|record)\b/.test(l)
    ? head(l.trim(), /\s*\{\s*$/)
    : null;

const RUBY: Rule = (l) => /^\s*(?:def|class|module)\s+\S/.test(l) ? l.trim() : null;

const PHP: Rule = (l) =>
  /^\s*(?:(?:abstract|final)\s+)?(?:class|interface|trait)\s+\w/.test(l) ||
    /^\s*(?:public\s+)?(?:static\s+)?function\s+\w/.test(l)
    ? head(l.trim(), /\s*\{\s*$/)
    : null;

const C: Rule = (l) =>
  /^[A-Za-z_][\w\s\*&:<>,]*\s[\*&]*[A-Za-z_][\w:]*\s*\([^;]*\)\s*(?:const\s*)?\{?\s*$/.test(l) &&
    !/^(?:if|for|while|switch|return|else)\b/.test(l) && !/^static\s/.test(l)
    ? head(l, /\s*\{\s*$/)
    : null;

const SHELL: Rule = (l) =>
  /^(?:function\s+)?[A-Za-z_][\w-]*\s*\(\)\s*\{?\s*$/.test(l) ||
    /^function\s+[A-Za-z_][\w-]*/.test(l)
    ? head(l, /\s*\{\s*$/)
    : null;

const MARKDOWN: Rule = (l) => /^#{1,6}\s+\S/.test(l) ? l.trim() : null;

const RULES: [RegExp, Rule][] = [
  [/\.(?:[cm]?[jt]sx?)$/i, JS],
  [/\.pyi?$/i, PY],
  [/\.go$/i, GO],
  [/\.rs$/i, RUST],
  [/\.(?:java|kt|kts|cs|scala)$/i, JVM],
  [/\.rb$/i, RUBY],
  [/\.php$/i, PHP],
  [/\.(?:c|h|cc|cpp|cxx|hpp|hh)$/i, C],
  [/\.(?:sh|bash|zsh)$/i, SHELL],
  [/\.(?:md|markdown|mdx)$/i, MARKDOWN],
];

/** Whether `path` has outline rules (a known language). */
export function hasOutline(path: string): boolean {
  return RULES.some(([re]) => re.test(path));
}

/** The outline of `text`, at most {@link OUTLINE_MAX_LINES} lines plus a "more" note. */
export function outline(path: string, text: string): string[] {
  const rule = RULES.find(([re]) => re.test(path))?.[1];
  if (!rule) return [];
  const out: string[] = [];
  let more = 0;
  let fenced = false;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (rule === MARKDOWN && /^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const sig = rule(line);
    if (sig === null || sig === "") continue;
    if (out.length < OUTLINE_MAX_LINES) out.push(clip(sig));
    else more++;
  }
  if (more > 0) out.push(`… ${more} more`);
  return out;
}

/** The line up to where `tail` starts (a body, an initializer), trimmed. */
function head(line: string, tail: RegExp): string {
  return line.replace(tail, "").trimEnd();
}

function clip(line: string): string {
  return line.length > MAX_LINE ? line.slice(0, MAX_LINE - 1) + "…" : line;
}
