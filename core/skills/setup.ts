/**
 * Skills for one session: discover them, render the L1 index within its
 * budget, and decide which skill tools the prompt documents. The
 * tokenizer is loaded only when there is at least one skill.
 *
 * @example
 * ```ts
 * const s = await setupSkills({ cwd, homeDir, contextWindow: 128_000, warn });
 * buildSystemPrompt({ ..., tools: promptTools(tools, s.index), skills: s.l1.text });
 * ```
 * @module
 */
import type { AnyTool } from "../../interfaces/tool.ts";
import { indexBudget, type IndexText, renderSkillIndex } from "./catalog.ts";
import { discoverSkills, type SkillIndex, skillRoots } from "./index.ts";
import { tokenCounter } from "./tokens.ts";

/** What a session needs to know about its skills before it starts. */
export interface SkillSetup {
  index: SkillIndex;
  l1: IndexText;
}

/** Options of {@link setupSkills}. */
export interface SetupOptions {
  cwd: string;
  /** The `.minoc` home (its `skills/` is searched last). */
  homeDir: string;
  contextWindow: number;
  /** Share of the context window the L1 index may take (default 2%). */
  share?: number;
  /** Told about every skipped skill and ignored field. */
  warn(message: string): void;
}

/** The tools that only make sense with skills. */
export const SKILL_TOOLS: ReadonlySet<string> = new Set(["use_skill", "run_skill_script"]);

/** Discovers the skills and renders the L1 index. */
export async function setupSkills(o: SetupOptions): Promise<SkillSetup> {
  const index = await discoverSkills(skillRoots(o.cwd, o.homeDir), o.warn);
  const budget = indexBudget(o.contextWindow, o.share);
  if (index.skills.length === 0) {
    return { index, l1: { text: "", tokens: 0, budget, listed: 0, shortened: 0, omitted: 0 } };
  }
  return { index, l1: renderSkillIndex(index.skills, budget, await tokenCounter()) };
}

/** Skill tools the system prompt leaves out even with skills: use_skill's answer shows them. */
const DISCLOSED: ReadonlySet<string> = new Set(["run_skill_script"]);

/**
 * The tools the prompt documents: without the skill tools when there is no
 * skill, and never run_skill_script (a skill's first use_skill answer shows
 * how to run its scripts).
 */
export function promptTools(tools: readonly AnyTool[], index: SkillIndex): readonly AnyTool[] {
  const hidden = (name: string) =>
    DISCLOSED.has(name) || (index.skills.length === 0 && SKILL_TOOLS.has(name));
  return tools.filter((t) => !hidden(t.name));
}
