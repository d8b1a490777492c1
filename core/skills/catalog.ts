/**
 * Level 1 of progressive disclosure: the skill index in the system prompt.
 * Each skill gets its name, description (at most 80 characters: the rest
 * comes with use_skill) and when to use it — nothing more — within a token
 * budget (default 2% of the context window). Over budget, descriptions are
 * shortened further first; only then are skills left out.
 *
 * @example
 * ```ts
 * const l1 = renderSkillIndex(index.skills, indexBudget(settings.contextWindow), await tokenCounter());
 * if (l1.text) prompt += "\n\n" + l1.text;
 * ```
 * @module
 */
import type { Skill } from "./index.ts";
import type { TokenCounter } from "./tokens.ts";

/** The rendered index and what fitting it into the budget cost. */
export interface IndexText {
  /** The prompt section ("" when no skill may be shown to the model). */
  text: string;
  tokens: number;
  budget: number;
  /** Skills listed. */
  listed: number;
  /** Skills whose description was shortened. */
  shortened: number;
  /** Skills left out for lack of room. */
  omitted: number;
}

/** Share of the context window the index may take by default. */
export const DEFAULT_INDEX_SHARE = 0.02;

/** The index budget in tokens for a context window. */
export function indexBudget(contextWindow: number, share = DEFAULT_INDEX_SHARE): number {
  return Math.max(0, Math.floor(contextWindow * share));
}

const HEADER = `# Skills
When a task matches a skill, call use_skill with its name first and follow it.`;

/**
 * Longest description in the index: enough to pick a skill by; a longer one
 * is cut at a word, and use_skill's first answer gives it whole.
 */
export const MAX_INDEX_DESCRIPTION = 80;

/** Description lengths tried, longest first, when the index is over budget. */
const LENGTHS = [MAX_INDEX_DESCRIPTION, 60, 30];

/** Renders the index of model-invocable skills within `budget` tokens. */
export function renderSkillIndex(
  skills: readonly Skill[],
  budget: number,
  count: TokenCounter,
): IndexText {
  const shown = skills.filter((s) => !s.disableModelInvocation);
  if (shown.length === 0) {
    return { text: "", tokens: 0, budget, listed: 0, shortened: 0, omitted: 0 };
  }
  for (const max of LENGTHS) {
    const lines = shown.map((s) => entry(s, max));
    const text = [HEADER, ...lines].join("\n");
    const tokens = count(text);
    if (tokens <= budget) {
      const shortened = shown.filter((s) => entry(s, max) !== entry(s, Infinity)).length;
      return { text, tokens, budget, listed: shown.length, shortened, omitted: 0 };
    }
  }
  return dropSkills(shown, budget, count);
}

/** At the shortest descriptions: keeps as many skills as fit, in order. */
function dropSkills(shown: readonly Skill[], budget: number, count: TokenCounter): IndexText {
  const min = LENGTHS[LENGTHS.length - 1];
  const lines = shown.map((s) => entry(s, min));
  let keep = lines.length - 1;
  const render = (n: number) =>
    [
      HEADER,
      ...lines.slice(0, n),
      `- (${shown.length - n} more skills not listed for lack of room)`,
    ]
      .join("\n");
  while (keep > 0 && count(render(keep)) > budget) keep--;
  const text = render(keep);
  return {
    text,
    tokens: count(text),
    budget,
    listed: keep,
    shortened: shown.slice(0, keep).filter((s) => entry(s, min) !== entry(s, Infinity)).length,
    omitted: shown.length - keep,
  };
}

/** One line: `- name: description (use for: keywords)`, the description cut to `max` characters. */
function entry(skill: Skill, max: number): string {
  const when = skill.keywords.length ? ` Use for: ${skill.keywords.join(", ")}.` : "";
  const text = shorten(skill.description.replace(/\s+/g, " "), max);
  const whenText = max < MAX_INDEX_DESCRIPTION ? shorten(when, Math.max(0, max)) : when;
  return `- ${skill.name}: ${text}${whenText}`;
}

/** Cuts `text` to `max` characters at a word boundary, with an ellipsis. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return "";
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut).trimEnd() + "…";
}
