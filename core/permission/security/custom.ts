/**
 * Patterns of the user's security.json: a glob over the normalised command
 * (`terraform destroy *`; `*` is any text, a trailing ` *` also matches
 * nothing) or a regular expression after `re:`. Matching ignores case.
 *
 * @module
 */
import type { Rule, Segment, ShellKind } from "./types.ts";

/**
 * Compiles a pattern; throws on a bad regular expression.
 *
 * @example
 * ```ts
 * compilePattern("npm test *").test("npm test"); // true
 * compilePattern("re:^kubectl (apply|replace)").test("kubectl apply -f x"); // true
 * ```
 */
export function compilePattern(pattern: string): RegExp {
  if (pattern.startsWith("re:")) return new RegExp(pattern.slice(3), "is");
  let src = "";
  const body = pattern.trim();
  const tail = body.endsWith(" *");
  for (const c of tail ? body.slice(0, -2) : body) {
    src += c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${src}${tail ? "(\\s.*)?" : ""}$`, "is");
}

/** The texts a pattern is tried on: normalised command, text as written, whole pipeline. */
export function segmentTexts(seg: Segment): string[] {
  const normal = [seg.name || seg.rawName, ...seg.args.map((a) => a.text)].join(" ").trim();
  return [normal, seg.text.trim(), seg.pipeline.trim()];
}

/** Whether any of `patterns` matches the segment. */
export function matchesAny(seg: Segment, patterns: readonly RegExp[]): boolean {
  if (patterns.length === 0) return false;
  const texts = segmentTexts(seg);
  return patterns.some((p) => texts.some((t) => p.test(t)));
}

/** A custom rule from security.json. */
export function customRule(
  entry: { id: string; pattern: string; reason: string; risk?: string; shells?: string[] },
  verdict: "block" | "warn",
): Rule {
  const re = compilePattern(entry.pattern);
  const shells = entry.shells as ShellKind[] | undefined;
  const risk = (verdict === "block" ? "critical" : entry.risk ?? "high") as Rule["risk"];
  return Object.freeze({
    id: entry.id,
    verdict,
    risk,
    description: `${entry.reason} (pattern "${entry.pattern}")`,
    custom: true,
    match: (seg: Segment) =>
      (!shells || shells.includes(seg.shell)) && matchesAny(seg, [re]) ? entry.reason : null,
  });
}
