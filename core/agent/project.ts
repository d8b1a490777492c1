/**
 * The project analysis (dynamic context): a compact description of the
 * working directory for the system prompt, built at the start of a session
 * and on `/refresh` — a depth-limited tree (`.gitignore` honoured, big
 * folders summarised with counts), languages by file count, manifests and
 * what they declare, the detected build/test/lint commands, the layers of a
 * layered project, and the project's own instructions (AGENTS.md).
 *
 * The section stays within a token budget (default 1,500) whatever the size
 * of the repository. An empty directory gets the new-project rules instead.
 *
 * @example
 * ```ts
 * const project = await analyzeProject(Deno.cwd());
 * console.log(project.section, project.tokens, project.ms);
 * ```
 * @module
 */
import { join } from "node:path";
import type { FsPort } from "../../interfaces/tool.ts";
import { ancestorRules } from "../tools/gitignore.ts";
import { realFs } from "../tools/fs_port.ts";
import { detectLayers } from "./project_layers.ts";
import { readManifests } from "./project_manifests.ts";
import {
  type CountTokens,
  fitSection,
  languagesOf,
  loadTokenCounter,
  type SectionFacts,
} from "./project_render.ts";
import { type DirNode, scanTree } from "./project_scan.ts";
import { NEW_PROJECT_RULES } from "./project_interview.ts";
import { Footprint, keep, type KeptAnalysis, loadKept } from "./project_cache.ts";
import { readRegularFileSync } from "../tools/bounded_read.ts";

/** The analysis of one working directory. */
export interface ProjectAnalysis {
  root: string;
  /** No files yet (README, LICENSE and hidden files aside): a new project. */
  empty: boolean;
  /** The "# Project" section of the system prompt. */
  section: string;
  /** Tokens of `section` (cl100k_base); at most its UTF-8 size when not counted. */
  tokens: number;
  /** AGENTS.md and `.minoc/instructions.md`, joined; absent when there are none. */
  instructions?: string;
  facts: SectionFacts;
  /** Milliseconds spent: walking the tree, and in all. */
  ms: { scan: number; total: number };
  /** The facts are the last session's, kept because nothing they came from changed. */
  kept?: boolean;
}

/** Options of {@link analyzeProject}. */
export interface AnalyzeOptions {
  /** Token budget of the section (default 1,500). */
  budgetTokens?: number;
  /** Longest tree walk in milliseconds (default 1,000). */
  timeBudgetMs?: number;
  /** Token counter (default: the cheap estimate). */
  count?: CountTokens;
  /** Where analyses are kept for the next session (`project_cache.ts`); none when absent. */
  cacheDir?: string;
}

/** The project's instruction files, in the order they are joined. */
export const INSTRUCTION_FILES: readonly string[] = [
  "AGENTS.md",
  join(".minoc", "instructions.md"),
];

/** Longest instructions text kept in the prompt, in characters. */
const MAX_INSTRUCTIONS = 16_000;

/** Analyses `root` (an absolute directory). */
export async function analyzeProject(
  root: string,
  o: AnalyzeOptions = {},
): Promise<ProjectAnalysis> {
  const start = performance.now();
  const budget = o.budgetTokens ?? 1_500;
  const options = JSON.stringify([budget, o.timeBudgetMs ?? null]);
  const kept = o.cacheDir === undefined ? null : loadKept(o.cacheDir, root, options);
  const found: KeptAnalysis & { scanMs?: number } = kept ?? await walkProject(root, o, options);
  const fitted = found.empty
    ? plain(`# Project\n${NEW_PROJECT_RULES}`)
    : await fit(found.facts, budget, o.count);
  return {
    root,
    empty: found.empty,
    section: fitted.text,
    tokens: fitted.tokens,
    instructions: found.instructions,
    facts: found.facts,
    ms: { scan: found.scanMs ?? 0, total: performance.now() - start },
    ...(kept ? { kept: true } : {}),
  };
}

/** Walks and reads the project; keeps the facts for the next session when `o.cacheDir` is set. */
async function walkProject(
  root: string,
  o: AnalyzeOptions,
  options: string,
): Promise<KeptAnalysis & { scanMs?: number }> {
  const footprint = o.cacheDir === undefined ? undefined : new Footprint();
  const fs = footprint === undefined ? realFs : noting(footprint);
  const above = await ancestorRules(fs, root, root).catch(() => []);
  const scan = scanTree(root, { timeBudgetMs: o.timeBudgetMs }, above, footprint);
  const hasTests = scan.root.dirs.some((d) => /^(tests?|spec)$/.test(d.name));
  const { manifests, commands } = readManifests(root, scan.root.fileNames, hasTests);
  const facts: SectionFacts = {
    root: scan.root,
    partial: scan.partial,
    languages: languagesOf(scan.extensions),
    manifests,
    commands,
    layers: detectLayers(scan.root),
  };
  const found = {
    facts,
    empty: isEmptyProject(scan.root),
    instructions: readInstructions(root),
  };
  if (footprint !== undefined && o.cacheDir !== undefined) {
    // The manifests are among the root's files; the instructions may be ignored or hidden.
    for (const name of scan.root.fileNames) footprint.add(join(root, name));
    for (const name of INSTRUCTION_FILES) footprint.add(join(root, name));
    keep(o.cacheDir, root, options, footprint, found);
  }
  return { ...found, scanMs: scan.ms };
}

/**
 * The real disk, noting whether each path asked about is there and each file
 * read (for `ancestorRules`, which looks for `.git` and reads `.gitignore`s
 * above the root: the folders themselves change too often to be noted).
 */
function noting(footprint: Footprint): FsPort {
  return {
    ...realFs,
    stat: (path) => {
      footprint.presence(path);
      return realFs.stat(path);
    },
    readFile: (path, options) => {
      footprint.add(path);
      return realFs.readFile(path, options);
    },
  };
}

/** Fits the section; the tokenizer loads only when the text might exceed the budget. */
async function fit(facts: SectionFacts, budget: number, count?: CountTokens) {
  // A token is at least one byte, so a text no longer than the budget in bytes fits.
  const bytes: CountTokens = (t) => new TextEncoder().encode(t).length;
  const cheap = fitSection(facts, budget, bytes);
  if (cheap.detail === 0) return cheap;
  return fitSection(facts, budget, count ?? await loadTokenCounter());
}

function plain(text: string) {
  return { text, tokens: new TextEncoder().encode(text).length };
}

const KEEP_IN_EMPTY = /^(readme|license|licence|copying|changelog|notice)(\..*)?$/i;

/** Whether a folder holds no project yet (only README/LICENSE-like files, no folders). */
export function isEmptyProject(root: DirNode): boolean {
  return root.dirs.length === 0 && root.fileNames.every((n) => KEEP_IN_EMPTY.test(n));
}

/** The project's instruction files, joined (absent when there are none). */
export function readInstructions(root: string): string | undefined {
  const parts: string[] = [];
  for (const name of INSTRUCTION_FILES) {
    try {
      // A prefix is enough (the text is cut below); only a regular file is read.
      const bytes = readRegularFileSync(join(root, name), { maxBytes: MAX_INSTRUCTIONS * 4 });
      const text = new TextDecoder().decode(bytes).trim();
      if (text !== "") parts.push(text);
    } catch {
      // absent: nothing to add
    }
  }
  if (parts.length === 0) return undefined;
  const all = parts.join("\n\n");
  return all.length <= MAX_INSTRUCTIONS
    ? all
    : `${all.slice(0, MAX_INSTRUCTIONS)}\n(cut here: read AGENTS.md for the rest)`;
}
