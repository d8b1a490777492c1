/**
 * Skill fixtures for tests: copies of `tests/fixtures/skills/` in temp
 * projects, so scripts can write a project's `build/` without touching the
 * repository.
 *
 * @example
 * ```ts
 * await using p = await skillProject();
 * await Deno.stat(join(p.dir, "skills", "brand-kit", "SKILL.md"));
 * ```
 * @module
 */
import { join } from "node:path";
import { ROOT } from "./cli.ts";

/** The fixture folder. */
export const SKILL_FIXTURES = join(ROOT, "tests", "fixtures", "skills");

/** Copies a folder tree (files and folders only). */
export async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    const a = join(from, e.name);
    const b = join(to, e.name);
    if (e.isDirectory) await copyTree(a, b);
    else await Deno.copyFile(a, b);
  }
}

/** A temp project (real path) holding a copy of the fixture project; removed on dispose. */
export interface SkillProject extends AsyncDisposable {
  dir: string;
}

/** A temp project with `skills/` from the fixtures; `extra` fixture folders are copied to the given places. */
export async function skillProject(
  extra: Record<string, string> = {},
): Promise<SkillProject> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_skills_" }));
  await copyTree(join(SKILL_FIXTURES, "project"), dir);
  for (const [fixture, place] of Object.entries(extra)) {
    await copyTree(join(SKILL_FIXTURES, fixture), join(dir, place));
  }
  return {
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}
