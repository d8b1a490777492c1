/**
 * SKILL.md front matter: split the YAML block from the body, parse it with
 * `yaml`, and check it against the skill format (Claude-Skills-compatible).
 *
 * Required: `name` (≤ 64 characters: lowercase letters, digits and single
 * hyphens, equal to the folder name) and `description` (≤ 1,024 characters).
 * Optional: `version`, `inputs`, `outputs`, `keywords`, `stages`,
 * `allowed-tools`, `disable-model-invocation` (and `license`, `metadata`
 * from the Agent Skills format). Other fields are ignored with a warning.
 *
 * @example
 * ```ts
 * const r = parseSkillFile(text, "brand-kit");
 * if (r.ok) console.log(r.meta.description, r.warnings);
 * else console.log(r.problem);
 * ```
 * @module
 */
import { parse } from "yaml";

/** The checked front matter of one skill. */
export interface SkillMeta {
  name: string;
  description: string;
  version?: string;
  inputs: string[];
  outputs: string[];
  keywords: string[];
  stages: string[];
  allowedTools: string[];
  disableModelInvocation: boolean;
}

/** A parsed SKILL.md, or the problem that makes it invalid. */
export type ParsedSkill =
  | { ok: true; meta: SkillMeta; body: string; warnings: string[] }
  | { ok: false; problem: string };

/** Longest skill name. */
export const MAX_NAME = 64;
/** Longest description. */
export const MAX_DESCRIPTION = 1024;

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const KNOWN = new Set([
  "name",
  "description",
  "version",
  "inputs",
  "outputs",
  "keywords",
  "stages",
  "allowed-tools",
  "disable-model-invocation",
  "license",
  "metadata",
]);

/** Splits `---\n<yaml>\n---` from the body; null when the file has no front matter. */
export function splitFrontMatter(text: string): { yaml: string; body: string } | null {
  const t = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  if (!t.startsWith("---\n")) return null;
  const end = /\n---[ \t]*(?:\n|$)/.exec(t.slice(3));
  if (!end) return null;
  const yaml = t.slice(4, 3 + end.index + 1);
  const body = t.slice(3 + end.index + end[0].length);
  return { yaml, body: body.replace(/^\n+/, "") };
}

/** Parses and checks a SKILL.md whose folder is called `folder`. */
export function parseSkillFile(text: string, folder: string): ParsedSkill {
  const split = splitFrontMatter(text);
  if (!split) {
    return { ok: false, problem: "no YAML front matter (start the file with a --- line)" };
  }
  let data: unknown;
  try {
    data = parse(split.yaml);
  } catch (e) {
    const first = String((e as Error).message).split("\n")[0];
    return { ok: false, problem: `invalid YAML front matter: ${first}` };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { ok: false, problem: "the front matter is not a mapping of fields" };
  }
  const checked = checkFields(data as Record<string, unknown>, folder);
  if (typeof checked === "string") return { ok: false, problem: checked };
  return { ok: true, meta: checked.meta, body: split.body, warnings: checked.warnings };
}

/** Why `name` is not a valid skill name for `folder`, or undefined when it is. */
export function nameProblem(name: unknown, folder: string): string | undefined {
  if (name === undefined || name === null) return 'the field "name" is missing';
  if (typeof name !== "string") return 'the field "name" must be a string';
  if (name.length > MAX_NAME) {
    return `the name "${name}" is longer than ${MAX_NAME} characters`;
  }
  if (!NAME.test(name)) {
    return `the name "${name}" must use lowercase letters, digits and single hyphens`;
  }
  if (name !== folder) return `the name "${name}" differs from its folder "${folder}"`;
  return undefined;
}

function checkFields(
  data: Record<string, unknown>,
  folder: string,
): { meta: SkillMeta; warnings: string[] } | string {
  const bad = nameProblem(data.name, folder);
  if (bad) return bad;
  const d = data.description;
  if (d === undefined || d === null || (typeof d === "string" && d.trim() === "")) {
    return 'the field "description" is missing';
  }
  if (typeof d !== "string") return 'the field "description" must be a string';
  if (d.length > MAX_DESCRIPTION) {
    return `the description is longer than ${MAX_DESCRIPTION} characters (${d.length})`;
  }
  const lists: Record<string, string[]> = {};
  for (const field of ["inputs", "outputs", "keywords", "stages", "allowed-tools"]) {
    const list = readList(data[field]);
    if (list === null) return `the field "${field}" must be a list of strings`;
    lists[field] = list;
  }
  const v = data.version;
  if (v !== undefined && typeof v !== "string" && typeof v !== "number") {
    return 'the field "version" must be a string';
  }
  const dmi = data["disable-model-invocation"];
  if (dmi !== undefined && typeof dmi !== "boolean") {
    return 'the field "disable-model-invocation" must be true or false';
  }
  const warnings = Object.keys(data)
    .filter((k) => !KNOWN.has(k))
    .map((k) => `unknown field "${k}" is ignored`);
  return {
    meta: {
      name: data.name as string,
      description: d.trim(),
      ...(v === undefined ? {} : { version: String(v) }),
      inputs: lists.inputs,
      outputs: lists.outputs,
      keywords: lists.keywords,
      stages: lists.stages,
      allowedTools: lists["allowed-tools"],
      disableModelInvocation: dmi === true,
    },
    warnings,
  };
}

/**
 * A list field: a YAML list of strings, a comma-separated string, or a
 * mapping of names to descriptions (`name: description`); null when invalid.
 */
function readList(value: unknown): string[] | null {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") {
    return value.split(",").map((s) => s.trim()).filter((s) => s !== "");
  }
  if (Array.isArray(value)) {
    if (!value.every((x) => typeof x === "string" || typeof x === "number")) return null;
    return value.map(String);
  }
  if (typeof value === "object") {
    const out: string[] = [];
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (typeof v !== "string" && v !== null) return null;
      out.push(v ? `${k}: ${v}` : k);
    }
    return out;
  }
  return null;
}
