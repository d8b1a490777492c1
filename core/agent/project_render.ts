/**
 * Renders the project analysis as the "# Project" section of the system
 * prompt and fits it into a token budget: the tree is drawn at decreasing
 * detail (depth, files per folder, lines) until the whole section fits, then
 * cut line by line as a last resort. Tokens are the cheap estimate of
 * `core/llm/token_estimate.ts`.
 *
 * @example
 * ```ts
 * const { text, tokens } = await fitSection(facts, 1_500, await loadTokenCounter());
 * ```
 * @module
 */
import type { Commands, Manifest } from "./project_manifests.ts";
import type { Layer } from "./project_layers.ts";
import type { DirNode } from "./project_scan.ts";
import { tokenCounter } from "../skills/tokens.ts";

/** Counts the tokens of a text. */
export type CountTokens = (text: string) => number;

/** What the section shows. */
export interface SectionFacts {
  root: DirNode;
  partial: boolean;
  languages: readonly [string, number][];
  manifests: readonly Manifest[];
  commands: Commands;
  layers: readonly Layer[];
}

/** How much of the tree to draw. */
interface Detail {
  depth: number;
  /** File names shown per folder. */
  files: number;
  /** Subfolders shown per folder. */
  dirs: number;
  /** Tree lines at most. */
  lines: number;
}

const DETAILS: readonly Detail[] = [
  { depth: 4, files: 10, dirs: 14, lines: 140 },
  { depth: 3, files: 8, dirs: 12, lines: 90 },
  { depth: 3, files: 4, dirs: 10, lines: 60 },
  { depth: 2, files: 4, dirs: 8, lines: 40 },
  { depth: 2, files: 0, dirs: 8, lines: 30 },
  { depth: 1, files: 0, dirs: 20, lines: 20 },
];

/** The token estimate shared with the skills budgets (`core/llm/token_estimate.ts`). */
export function loadTokenCounter(): Promise<CountTokens> {
  return tokenCounter();
}

/** A fitted section: its text, its tokens, and the level of detail used (-1: cut). */
export interface FittedSection {
  text: string;
  tokens: number;
  detail: number;
}

/** The section at the most detail that fits `budget` tokens, and its count. */
export function fitSection(facts: SectionFacts, budget: number, count: CountTokens): FittedSection {
  const head = headerLines(facts);
  let lines: string[] = [];
  for (const [detail, d] of DETAILS.entries()) {
    lines = [...head, "Tree (file counts include subfolders):", ...treeLines(facts.root, d)];
    const text = lines.join("\n");
    const tokens = count(text);
    if (tokens <= budget) return { text, tokens, detail };
  }
  while (lines.length > 1) {
    lines.pop();
    const text = [...lines, "(cut to fit)"].join("\n");
    const tokens = count(text);
    if (tokens <= budget) return { text, tokens, detail: -1 };
  }
  return { text: "# Project", tokens: count("# Project"), detail: -1 };
}

function headerLines(f: SectionFacts): string[] {
  const lines = ["# Project"];
  const langs = f.languages.slice(0, 6).map(([name, n]) => `${name} ${n}`).join(", ");
  lines.push(
    `Files: ${f.root.files} in ${f.root.folders} folders (.gitignore honoured, hidden ones ` +
      `left out${f.partial ? "; scan stopped early, counts are partial" : ""}).` +
      (langs ? ` Languages: ${clip(langs, 160)}.` : ""),
  );
  if (f.manifests.length > 0) {
    const list = f.manifests.map((m) => `${m.file} (${clip(m.summary, 200)})`).join("; ");
    lines.push(`Manifests: ${list}`);
  }
  const cmds = (["test", "build", "lint"] as const)
    .filter((k) => f.commands[k] !== undefined)
    .map((k) => `${k} \`${f.commands[k]}\``);
  if (cmds.length > 0) lines.push(`Commands: ${cmds.join("; ")}. Run the tests after a change.`);
  if (f.layers.length > 0) {
    const list = f.layers.map((l) => `${l.layer} (${l.paths.join(", ")})`).join(", ");
    lines.push(
      `Layers: ${list}. A feature usually touches each layer, inside out; ` +
        "dependencies point inward.",
    );
  }
  return lines;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + "…";
}

/** The tree at one level of detail: a folder per line, its files inline. */
export function treeLines(root: DirNode, d: Detail): string[] {
  const out: string[] = [];
  const rootFiles = inlineFiles(root, d.files);
  out.push(`./${rootFiles}`);
  const visit = (dir: DirNode, depth: number) => {
    const shown = dir.dirs.slice(0, d.dirs);
    for (const child of shown) {
      if (out.length >= d.lines) return;
      out.push("  ".repeat(depth - 1) + folderLine(child, depth < d.depth, d));
      if (depth < d.depth && !child.skipped) visit(child, depth + 1);
    }
    const more = dir.dirs.length - shown.length;
    if (more > 0 && out.length < d.lines) {
      out.push(`${"  ".repeat(depth - 1)}+${more} more folders`);
    }
  };
  visit(root, 1);
  if (out.length >= d.lines) out.push("(more folders left out)");
  return out;
}

function folderLine(dir: DirNode, expand: boolean, d: Detail): string {
  if (dir.skipped) return `${dir.name}/ (${dir.skipped}, not scanned)`;
  const sub = dir.folders > 0 && !expand ? `, ${plural(dir.folders, "folder")}` : "";
  const count = `${dir.name}/ (${plural(dir.files, "file")}${sub})`;
  return expand ? count + inlineFiles(dir, d.files) : count;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function inlineFiles(dir: DirNode, max: number): string {
  if (max === 0 || dir.fileNames.length === 0) return "";
  const shown = dir.fileNames.slice(0, max).join(" ");
  const more = dir.ownFiles - Math.min(max, dir.fileNames.length);
  return `: ${shown}${more > 0 ? ` +${more} more` : ""}`;
}

/** Extension → language, for the languages line. */
const LANGUAGES: Record<string, string> = {
  ".ts": "TypeScript",
  ".tsx": "TypeScript",
  ".mts": "TypeScript",
  ".cts": "TypeScript",
  ".js": "JavaScript",
  ".jsx": "JavaScript",
  ".mjs": "JavaScript",
  ".cjs": "JavaScript",
  ".py": "Python",
  ".go": "Go",
  ".rs": "Rust",
  ".java": "Java",
  ".kt": "Kotlin",
  ".c": "C",
  ".h": "C",
  ".cc": "C++",
  ".cpp": "C++",
  ".hpp": "C++",
  ".cs": "C#",
  ".rb": "Ruby",
  ".php": "PHP",
  ".swift": "Swift",
  ".scala": "Scala",
  ".dart": "Dart",
  ".lua": "Lua",
  ".ex": "Elixir",
  ".exs": "Elixir",
  ".zig": "Zig",
  ".sh": "Shell",
  ".bash": "Shell",
  ".ps1": "PowerShell",
  ".sql": "SQL",
  ".html": "HTML",
  ".css": "CSS",
  ".scss": "CSS",
  ".vue": "Vue",
  ".svelte": "Svelte",
  ".md": "Markdown",
  ".json": "JSON",
  ".yaml": "YAML",
  ".yml": "YAML",
  ".toml": "TOML",
};

/** Languages by file count, most first, from extension counts. */
export function languagesOf(extensions: ReadonlyMap<string, number>): [string, number][] {
  const counts = new Map<string, number>();
  for (const [ext, n] of extensions) {
    const lang = LANGUAGES[ext];
    if (lang) counts.set(lang, (counts.get(lang) ?? 0) + n);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}
