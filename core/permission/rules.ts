/**
 * Permission rules: `{ tool, pattern, action }` entries that allow or deny
 * calls, scoped to one project directory or to every project. Command tools
 * match their command line word by word (`npm test *`), file tools match
 * their paths as globs relative to the project (`src/**`), other tools match
 * their first parameter.
 *
 * @example
 * ```ts
 * const subject = callSubject(input, "/repo");
 * const found = evaluateRules(rules, input.tool.name, subject, "/repo");
 * if (found.deny) console.log(`denied by ${found.deny.id}`);
 * ```
 * @module
 */
import {
  type CallSubject,
  callSubject,
  COMMAND_TOOLS,
  projectRelative,
  type SubjectPath,
  subjectPath,
} from "./rules_subject.ts";
import { isAbsolute } from "node:path";
import { wildcardCovers } from "./rules_danger.ts";
import { looseSegments, matchGlob, matchWords, patternWords } from "./rules_match.ts";

/** One allow or deny rule. `scope` is a project directory (absolute) or `*` for every project. */
export interface PermissionRule {
  id: string;
  tool: string;
  pattern: string;
  action: "allow" | "deny";
  scope: string;
  /** ISO timestamp. */
  createdAt: string;
}

/** A rule before it gets its id and timestamp. */
export type RuleDraft = Omit<PermissionRule, "id" | "createdAt">;

export { callSubject, COMMAND_TOOLS, projectRelative, subjectPath };
export type { CallSubject, SubjectPath };

/** Whether a rule applies in `projectDir`. */
export function inScope(rule: Pick<PermissionRule, "scope">, projectDir: string): boolean {
  if (rule.scope === "*") return true;
  return caseless()
    ? rule.scope.toLowerCase() === projectDir.toLowerCase()
    : rule.scope === projectDir;
}

/** What the rules say about one call. */
export interface RuleFinding {
  /** The first deny rule that matches any part of the call. */
  deny?: PermissionRule;
  /** Allow rules that together cover every part of the call; absent when some part is not covered. */
  allow?: PermissionRule[];
}

/**
 * Matches rules against a call. A deny rule matching any command segment or
 * any path denies; the call is allowed only when every segment (or path) is
 * matched by some allow rule. A command that cannot be split is never
 * allowed by a rule, but a deny pattern still matches its raw text.
 */
export function evaluateRules(
  rules: readonly PermissionRule[],
  tool: string,
  subject: CallSubject,
  projectDir: string,
): RuleFinding {
  const mine = rules.filter((r) => ruleCoversTool(r.tool, tool) && inScope(r, projectDir));
  const parts = subjectParts(subject);
  const deny = mine.find((r) =>
    r.action === "deny" && parts.some((part) => partMatches(r.pattern, part, "deny"))
  );
  if (deny) return { deny };
  if (parts.length === 0 || parts.some((p) => p.kind === "unsplit")) return {};
  const allows = mine.filter((r) => r.action === "allow");
  const used: PermissionRule[] = [];
  for (const part of parts) {
    const hit = allows.find((r) => partMatches(r.pattern, part, "allow"));
    if (!hit) return {};
    if (!used.includes(hit)) used.push(hit);
  }
  return { allow: used };
}

/**
 * Whether a rule's tool covers `tool`: the same name, or `mcp__<server>__*`
 * for every tool of that MCP server.
 */
export function ruleCoversTool(ruleTool: string, tool: string): boolean {
  if (ruleTool === tool) return true;
  return ruleTool.startsWith("mcp__") && ruleTool.endsWith("__*") &&
    tool.startsWith(ruleTool.slice(0, -1));
}

type Part =
  | { kind: "words"; words: string[] }
  | { kind: "unsplit"; text: string }
  | { kind: "path"; path: SubjectPath }
  | { kind: "value"; value: string };

function subjectParts(subject: CallSubject): Part[] {
  if (subject.kind === "command") {
    if (subject.segments === null) return [{ kind: "unsplit", text: subject.command }];
    return subject.segments.map((words) => ({ kind: "words", words }));
  }
  if (subject.kind === "paths") return subject.paths.map((path) => ({ kind: "path", path }));
  return [{ kind: "value", value: subject.value }];
}

function partMatches(pattern: string, part: Part, action: "allow" | "deny"): boolean {
  switch (part.kind) {
    case "words":
      return action === "deny" ? anySuffix(pattern, part.words) : allowsWords(pattern, part.words);
    case "unsplit":
      return looseSegments(part.text).some((words) => anySuffix(pattern, words));
    case "value":
      return matchGlob(pattern, part.value);
    case "path":
      return pathMatches(pattern, part.path, action);
  }
}

/** An allow pattern matches, and its wildcards do not stand for a dangerous use (`find * ` vs `-exec`). */
function allowsWords(pattern: string, words: string[]): boolean {
  const p = patternWords(pattern);
  return p !== null && matchWords(p, words) && wildcardCovers(p, words);
}

/** A deny pattern also finds a command behind prefixes such as `env`, `VAR=1` or `sudo`. */
function anySuffix(pattern: string, words: string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    if (matchWords(pattern, words.slice(i))) return true;
  }
  return false;
}

/** Allow needs both the written and the resolved path to match; deny needs either. */
function pathMatches(pattern: string, p: SubjectPath, action: "allow" | "deny"): boolean {
  const absolute = isAbsolute(pattern) || /^[A-Za-z]:[\\/]/.test(pattern);
  const pick = (abs: string | undefined, rel: string | null | undefined): boolean | undefined => {
    if (abs === undefined) return undefined;
    if (absolute) return matchGlob(pattern, abs, caseless());
    return rel === null || rel === undefined ? false : matchGlob(pattern, rel, caseless());
  };
  const written = pick(p.abs, p.rel) ?? false;
  const real = pick(p.real, p.realRel);
  if (real === undefined) return written;
  return action === "deny" ? written || real : written && real;
}

function caseless(): boolean {
  return Deno.build.os === "windows" || Deno.build.os === "darwin";
}

/** A rule in one line: `allow execute_command: npm test * (this project)`. */
export function describeRule(
  rule: Omit<PermissionRule, "id" | "createdAt">,
  projectDir?: string,
): string {
  return `${rule.action} ${rule.tool}: ${rule.pattern} (${scopeText(rule.scope, projectDir)})`;
}

/** `everywhere`, `this project`, or `project <dir>`. */
export function scopeText(scope: string, projectDir?: string): string {
  if (scope === "*") return "everywhere";
  if (projectDir !== undefined && inScope({ scope }, projectDir)) return "this project";
  return `project ${scope}`;
}

/** The label a verdict carries for a rule: `p-1a2b3c (allow execute_command: npm test *)`. */
export function ruleLabel(rule: PermissionRule): string {
  return `${rule.id} (${rule.action} ${rule.tool}: ${rule.pattern})`;
}

/** Checks a pattern for a tool; returns a message when it can never match. */
export function patternProblem(tool: string, pattern: string): string | undefined {
  if (pattern.trim() === "") return "the pattern is empty";
  if (COMMAND_TOOLS.has(tool) && patternWords(pattern) === null) {
    return `"${pattern}" is not one simple command: give words with * wildcards, e.g. "npm test *"`;
  }
  return undefined;
}

/** A parsed `--allow` / `--deny` value. */
export type RuleFlagResult =
  | { ok: true; rule: PermissionRule }
  | { ok: false; message: string };

/**
 * Parses `--allow "<tool>:<pattern>"` (or `--deny` with `action: "deny"`)
 * into an in-memory rule for every project. `knownTools`, when given,
 * rejects unknown tool names.
 *
 * @example
 * ```ts
 * parseRuleFlag("execute_command:npm test *"); // { ok: true, rule: { tool: "execute_command", pattern: "npm test *", ... } }
 * ```
 */
export function parseRuleFlag(
  text: string,
  action: "allow" | "deny" = "allow",
  knownTools?: readonly string[],
): RuleFlagResult {
  const flag = `--${action}`;
  const form =
    `expected "<tool>:<pattern>", e.g. "execute_command:npm test *" or "write_to_file:src/**"`;
  const colon = text.indexOf(":");
  if (colon < 0) return { ok: false, message: `Invalid ${flag} "${text}": ${form}` };
  const tool = text.slice(0, colon).trim();
  const pattern = text.slice(colon + 1).trim();
  // minoc's tools, an MCP tool (`mcp__github__create_issue`) or a whole MCP server (`mcp__github__*`).
  if (!/^[a-z][a-z0-9_]*$/.test(tool) && !/^mcp__[A-Za-z0-9_-]+(__\*)?$/.test(tool)) {
    return {
      ok: false,
      message: `Invalid ${flag} "${text}": "${tool}" is not a tool name; ${form}`,
    };
  }
  if (knownTools && !knownTools.includes(tool)) {
    return {
      ok: false,
      message: `Invalid ${flag} "${text}": unknown tool "${tool}" (tools: ${
        knownTools.join(", ")
      })`,
    };
  }
  const problem = patternProblem(tool, pattern);
  if (problem) return { ok: false, message: `Invalid ${flag} "${text}": ${problem}; ${form}` };
  return {
    ok: true,
    rule: { id: flag, tool, pattern, action, scope: "*", createdAt: new Date().toISOString() },
  };
}
