/**
 * Skill metrics: tokens disclosed per level, what was avoided (full bodies
 * not sent, text not sent again, script sources never sent), cache hits and
 * cuts. Kept in the session file as `metadata.skills`; `minoc skills stats`
 * adds them up over sessions.
 *
 * @example
 * ```ts
 * const total = sumMetrics(sessions.map((s) => readMetrics(s.metadata.skills)));
 * console.log(formatMetrics(total, sessions.length));
 * ```
 * @module
 */
import { textTable } from "../history/text_table.ts";

/** What one skill cost and saved in a session. */
export interface SkillUsage {
  /** Tokens of the body and sections sent by use_skill. */
  l2Tokens: number;
  /** Tokens of resources and script results sent. */
  l3Tokens: number;
  /** use_skill calls answered with text. */
  disclosures: number;
  resources: number;
  scripts: number;
  /** Requests answered with a reminder instead of text already sent. */
  cacheHits: number;
  /** Answers cut at headings (or at a line, without one) to fit the limit. */
  cuts: number;
  /** Tokens of text already sent that were not sent again. */
  resentAvoided: number;
  /** Tokens of the sources of scripts run (never sent). */
  sourceAvoided: number;
}

/** The skill metrics of a session (`metadata.skills`). */
export interface SkillMetrics {
  /** Skills in the index / listed in the prompt / with shortened descriptions / left out. */
  indexed: number;
  listed: number;
  shortened: number;
  omitted: number;
  /** L1: tokens of the index in the system prompt, and its budget. */
  l1Tokens: number;
  l1Budget: number;
  l2Tokens: number;
  l3Tokens: number;
  /** Tokens of bodies that were never sent (sum over indexed skills). */
  bodiesAvoided: number;
  resentAvoided: number;
  sourceAvoided: number;
  cacheHits: number;
  cuts: number;
  scripts: number;
  bySkill: Record<string, SkillUsage>;
}

/** Metrics with every count at zero. */
export function emptyMetrics(): SkillMetrics {
  return {
    indexed: 0,
    listed: 0,
    shortened: 0,
    omitted: 0,
    l1Tokens: 0,
    l1Budget: 0,
    l2Tokens: 0,
    l3Tokens: 0,
    bodiesAvoided: 0,
    resentAvoided: 0,
    sourceAvoided: 0,
    cacheHits: 0,
    cuts: 0,
    scripts: 0,
    bySkill: {},
  };
}

/** Usage of one skill with every count at zero. */
export function emptyUsage(): SkillUsage {
  return {
    l2Tokens: 0,
    l3Tokens: 0,
    disclosures: 0,
    resources: 0,
    scripts: 0,
    cacheHits: 0,
    cuts: 0,
    resentAvoided: 0,
    sourceAvoided: 0,
  };
}

/** Reads `metadata.skills` of a session file; undefined when it has none. */
export function readMetrics(value: unknown): SkillMetrics | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const out = emptyMetrics();
  for (const k of Object.keys(out) as (keyof SkillMetrics)[]) {
    if (k !== "bySkill" && typeof v[k] === "number") (out[k] as number) = v[k] as number;
  }
  if (typeof v.bySkill === "object" && v.bySkill !== null) {
    for (const [name, u] of Object.entries(v.bySkill as Record<string, unknown>)) {
      out.bySkill[name] = addUsage(emptyUsage(), u as Partial<SkillUsage>);
    }
  }
  return out;
}

/** Adds up metrics (e.g. of many sessions). */
export function sumMetrics(list: readonly SkillMetrics[]): SkillMetrics {
  const total = emptyMetrics();
  for (const m of list) {
    for (const k of Object.keys(total) as (keyof SkillMetrics)[]) {
      if (k !== "bySkill") (total[k] as number) += m[k] as number;
    }
    for (const [name, u] of Object.entries(m.bySkill)) {
      total.bySkill[name] = addUsage(total.bySkill[name] ?? emptyUsage(), u);
    }
  }
  return total;
}

function addUsage(a: SkillUsage, b: Partial<SkillUsage>): SkillUsage {
  const out = { ...a };
  for (const k of Object.keys(out) as (keyof SkillUsage)[]) {
    if (typeof b[k] === "number") out[k] += b[k] as number;
  }
  return out;
}

/** The metrics as a short report for the terminal. */
export function formatMetrics(m: SkillMetrics, sessions: number): string {
  const avoided = m.bodiesAvoided + m.resentAvoided + m.sourceAvoided;
  const lines = [
    `Sessions with skills: ${sessions}`,
    `Tokens disclosed: L1 ${m.l1Tokens} (index in the prompt), L2 ${m.l2Tokens} (bodies and sections), L3 ${m.l3Tokens} (resources and script results)`,
    `Tokens avoided: ${avoided} (bodies never sent ${m.bodiesAvoided}, not sent again ${m.resentAvoided}, script sources ${m.sourceAvoided})`,
    `Cache hits: ${m.cacheHits} · cuts applied: ${m.cuts} · scripts run: ${m.scripts} · descriptions shortened: ${m.shortened} · skills left out of the index: ${m.omitted}`,
  ];
  const names = Object.keys(m.bySkill).sort();
  if (names.length === 0) return lines.join("\n") + "\n";
  const rows = names.map((n) => {
    const u = m.bySkill[n];
    return [n, u.l2Tokens, u.l3Tokens, u.disclosures, u.resources, u.scripts, u.cacheHits, u.cuts];
  });
  const headers = [
    "skill",
    "L2 tokens",
    "L3 tokens",
    "uses",
    "resources",
    "scripts",
    "hits",
    "cuts",
  ];
  return lines.join("\n") + "\n\n" + textTable(headers, rows);
}
