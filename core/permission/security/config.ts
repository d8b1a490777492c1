/**
 * The user's `.minoc/config/security.json`: extra block and warn patterns,
 * built-in rules disabled by id, and exceptions. Validated with zod; a bad
 * file is reported with its path and field and never rewritten.
 *
 * @example
 * ```json
 * {
 *   "block": [{ "id": "no-terraform-destroy", "pattern": "terraform destroy *", "reason": "Destroys infrastructure" }],
 *   "warn": [{ "id": "kubectl-apply", "pattern": "re:^kubectl (apply|replace)\\b", "reason": "Changes the cluster" }],
 *   "disabled": ["kill"],
 *   "exceptions": ["git push --force-with-lease *"]
 * }
 * ```
 * @module
 */
import * as z from "zod";
import { BUILTIN_RULES } from "./rules/mod.ts";
import { compilePattern } from "./custom.ts";
import { SHELLS } from "./types.ts";
import { readTextFile } from "../../tools/bounded_read.ts";

const ID = /^[a-z0-9][a-z0-9._-]*$/;
/**
 * The zod schema of security.json, built on first use: most sessions have no
 * such file, and zod makes each schema's checks when it is declared, a large
 * part of evaluating the security gate's module (bench/NOTES.md).
 */
function securityConfigSchema(): ReturnType<typeof buildSchema> {
  return schema ??= buildSchema();
}

let schema: ReturnType<typeof buildSchema> | undefined;

function buildSchema() {
  const pattern = z.string().min(1).superRefine((p, ctx) => {
    try {
      compilePattern(p);
    } catch (e) {
      ctx.addIssue({
        code: "custom",
        message: `must be a valid pattern (${(e as Error).message})`,
      });
    }
  });
  const customRule = (risks: readonly [string, ...string[]]) =>
    z.strictObject({
      id: z.string().regex(ID, { message: "must be lower-case letters, digits, '.', '_' or '-'" }),
      pattern,
      reason: z.string().min(1),
      risk: z.enum(risks).optional(),
      shells: z.array(z.enum(SHELLS as [string, ...string[]])).optional(),
    });
  return z.strictObject({
    $schema: z.string().optional(),
    block: z.array(customRule(["critical"])).default([]),
    warn: z.array(customRule(["high", "medium"])).default([]),
    disabled: z.array(z.string()).default([]),
    exceptions: z.array(pattern).default([]),
  }).superRefine(checkIds);
}

/** Custom rule ids are unique and not built-in ones; disabled ids name a rule. */
function checkIds(
  c: { block: { id: string }[]; warn: { id: string }[]; disabled: string[] },
  ctx: z.RefinementCtx,
): void {
  const builtinIds = new Set(BUILTIN_RULES.map((r) => r.id));
  const seen = new Set<string>();
  for (const [list, rules] of [["block", c.block], ["warn", c.warn]] as const) {
    rules.forEach((r, i) => {
      if (builtinIds.has(r.id) || seen.has(r.id)) {
        ctx.addIssue({
          code: "custom",
          path: [list, i, "id"],
          message: `must be unique and not a built-in rule id, got "${r.id}"`,
        });
      }
      seen.add(r.id);
    });
  }
  c.disabled.forEach((id, i) => {
    if (!builtinIds.has(id) && !seen.has(id)) {
      ctx.addIssue({
        code: "custom",
        path: ["disabled", i],
        message: `must be a known rule id (see "minoc security rules"), got "${id}"`,
      });
    }
  });
}

/** A validated security configuration. */
export type SecurityConfig = z.output<ReturnType<typeof buildSchema>>;

/** The configuration used when there is no security.json. */
export const DEFAULT_SECURITY_CONFIG: SecurityConfig = Object.freeze({
  block: [],
  warn: [],
  disabled: [],
  exceptions: [],
}) as SecurityConfig;

/** Validates a parsed JSON value; `source` names the file in errors. */
export function parseSecurityConfig(
  value: unknown,
  source: string,
): { ok: true; config: SecurityConfig } | { ok: false; error: string } {
  const r = securityConfigSchema().safeParse(value);
  if (r.success) return { ok: true, config: r.data };
  const issue = r.error.issues[0];
  return { ok: false, error: `Cannot read "${source}": ${describe(issue)}` };
}

/**
 * Reads and validates security.json; a missing file gives the defaults. The
 * file is never written.
 */
export async function loadSecurityConfig(
  path: string,
): Promise<{ ok: true; config: SecurityConfig } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { ok: true, config: DEFAULT_SECURITY_CONFIG };
    return { ok: false, error: `Cannot read "${path}": ${(e as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Cannot read "${path}": invalid JSON (${(e as Error).message})` };
  }
  return parseSecurityConfig(value, path);
}

function describe(issue: z.core.$ZodIssue): string {
  const field = issue.path.reduce<string>(
    (acc, p) => (typeof p === "number" ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
    "",
  );
  const where = field ? `field "${field}"` : "the top level";
  switch (issue.code) {
    case "invalid_type":
      return /received undefined$/.test(issue.message)
        ? `${where} is required`
        : `${where} must be ${article(issue.expected)}`;
    case "unrecognized_keys":
      return `${where}: unknown field "${
        issue.keys[0]
      }" (allowed: block, warn, disabled, exceptions)`.replace(
        /^the top level: /,
        "",
      );
    case "too_small":
      return `${where} must not be empty`;
    case "invalid_value":
      return `${where} must be one of ${issue.values.map((v) => `"${String(v)}"`).join(", ")}`;
    default:
      return `${where} ${issue.message}`;
  }
}

function article(type: string): string {
  return type === "array" || type === "object" ? `an ${type}` : `a ${type}`;
}
