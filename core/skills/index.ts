/**
 * The skill index: every valid `SKILL.md` folder found in `./skills/`,
 * `./.minoc/skills/` and `skills/` in the `.minoc` home, in that order.
 * Invalid skills are skipped with a warning naming the file and the problem;
 * a name found twice keeps the first.
 *
 * @example
 * ```ts
 * const index = await discoverSkills(skillRoots(cwd, homeDir), (w) => console.error(w));
 * index.get("brand-kit")?.description;
 * ```
 * @module
 */
import { join } from "node:path";
import type { SkillMeta } from "./frontmatter.ts";
import { readTextFile } from "../tools/bounded_read.ts";

/** One valid skill. */
export interface Skill extends SkillMeta {
  /** Absolute path of the skill's folder. */
  dir: string;
  /** Absolute path of its SKILL.md. */
  file: string;
  /** The SKILL.md text after the front matter. */
  body: string;
}

/** The skills of a session, in discovery order. */
export interface SkillIndex {
  readonly skills: readonly Skill[];
  get(name: string): Skill | undefined;
}

/** One skill folder as read: a skill and its warnings, or the problem. */
export type LoadedSkill =
  | { ok: true; skill: Skill; warnings: string[] }
  | { ok: false; problem: string };

/** The name of a skill's definition file. */
export const SKILL_FILE = "SKILL.md";

/** Where skills are looked for, first wins: `./skills`, `./.minoc/skills`, `<home>/skills`. */
export function skillRoots(cwd: string, homeDir: string): string[] {
  return [join(cwd, "skills"), join(cwd, ".minoc", "skills"), join(homeDir, "skills")];
}

/** An index over `skills` (first of each name wins). */
export function makeIndex(skills: readonly Skill[]): SkillIndex {
  const byName = new Map<string, Skill>();
  for (const s of skills) if (!byName.has(s.name)) byName.set(s.name, s);
  const list = [...byName.values()];
  return { skills: list, get: (name) => byName.get(name) };
}

/** Reads every skill under `roots`; `warn` hears about each skipped skill and ignored field. */
export async function discoverSkills(
  roots: readonly string[],
  warn: (message: string) => void,
): Promise<SkillIndex> {
  const found: Skill[] = [];
  const seen = new Map<string, string>();
  const seenDirs = new Set<string>();
  for (const root of roots) {
    for (const dir of await skillFolders(root)) {
      const real = await Deno.realPath(dir).catch(() => dir);
      if (seenDirs.has(real)) continue;
      seenDirs.add(real);
      const loaded = await loadSkill(dir);
      if (loaded === null) continue;
      const file = join(dir, SKILL_FILE);
      if (!loaded.ok) {
        warn(`Skill "${file}" is skipped: ${loaded.problem}`);
        continue;
      }
      for (const w of loaded.warnings) warn(`Skill "${file}": ${w}`);
      const first = seen.get(loaded.skill.name);
      if (first !== undefined) {
        warn(`Skill "${file}" is skipped: the name "${loaded.skill.name}" is taken by "${first}"`);
        continue;
      }
      seen.set(loaded.skill.name, file);
      found.push(loaded.skill);
    }
  }
  return makeIndex(found);
}

/** Reads one skill folder; null when it has no SKILL.md. */
export async function loadSkill(dir: string): Promise<LoadedSkill | null> {
  const file = join(dir, SKILL_FILE);
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    return { ok: false, problem: `cannot read it: ${(e as Error).message}` };
  }
  const folder = dir.replace(/[\\/]+$/, "").split(/[\\/]/).pop() ?? "";
  // The YAML parser (~280 KB) loads with the first SKILL.md, not with every session.
  const { parseSkillFile } = await import("./frontmatter.ts");
  const parsed = parseSkillFile(text, folder);
  if (!parsed.ok) return parsed;
  return {
    ok: true,
    skill: { ...parsed.meta, dir, file, body: parsed.body },
    warnings: parsed.warnings,
  };
}

/** The sub-folders of `root`, sorted by name; none when it does not exist. */
export async function skillFolders(root: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(root)) {
      if (e.name.startsWith(".")) continue;
      if (e.isDirectory) names.push(e.name);
      else if (
        e.isSymlink && (await Deno.stat(join(root, e.name)).catch(() => null))?.isDirectory
      ) {
        names.push(e.name);
      }
    }
  } catch {
    return [];
  }
  return names.sort().map((n) => join(root, n));
}
