/**
 * File-name globs for `search_files`.
 *
 * A pattern without a `/` matches the file's base name at any depth, so `*.ts`
 * finds every TypeScript file (as in `.gitignore` and ripgrep's `-g`). A
 * pattern with a `/` matches the path relative to the searched directory:
 * `src/*.ts` only directly in `src`, `src/**\/*.ts` at any depth below it.
 * Supported: `*`, `**`, `?`, `[abc]`, `[!abc]`, `{a,b}`, `\x`. Matching ignores
 * case.
 *
 * @example
 * ```ts
 * const match = compileGlob("*.{ts,tsx}");
 * match("src/app.tsx", "app.tsx"); // true
 * ```
 * @module
 */

/** A test on a `/`-separated path relative to the search root and its base name. */
export type NameMatcher = (rel: string, name: string) => boolean;

/** Compiles `pattern`; an empty pattern, `*` and `**` match everything. */
export function compileGlob(pattern: string): NameMatcher {
  let p = pattern.trim();
  while (p.startsWith("./")) p = p.slice(2);
  if (p === "" || p === "*" || p === "**" || p === "**/*") return () => true;
  const anchored = p.includes("/");
  if (p.startsWith("/")) p = p.slice(1);
  if (p.endsWith("/")) p += "**";
  const re = new RegExp(`^${globToRegExpSource(p)}$`, "i");
  if (anchored) return (rel) => re.test(rel);
  return (_rel, name) => re.test(name);
}

/** The regular-expression source for one glob (no anchors). */
export function globToRegExpSource(glob: string): string {
  let out = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\" && i + 1 < glob.length) {
      out += escapeChar(glob[++i]);
    } else if (c === "*") {
      const double = glob[i + 1] === "*";
      if (!double) {
        out += "[^/]*";
        continue;
      }
      i++;
      const atStart = i === 1 || glob[i - 2] === "/";
      if (glob[i + 1] === "/" && atStart) {
        out += "(?:.*/)?";
        i++;
      } else {
        out += ".*";
      }
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) {
        out += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, end).replaceAll("\\", "\\\\");
      if (body.startsWith("!")) body = "^" + body.slice(1);
      out += `[${body}]`;
      i = end;
    } else if (c === "{") {
      braces++;
      out += "(?:";
    } else if (c === "}" && braces > 0) {
      braces--;
      out += ")";
    } else if (c === "," && braces > 0) {
      out += "|";
    } else {
      out += escapeChar(c);
    }
  }
  return out + ")".repeat(braces);
}

function escapeChar(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
