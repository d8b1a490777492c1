/**
 * `permissions.json`: the persisted rules, shared by every minoc process.
 *
 * Every change re-reads the file, merges, and replaces it atomically (temp
 * file + rename) while holding an exclusive lock on `permissions.json.lock`
 * (an OS file lock: a crashed holder releases it, so a lock is never stale).
 * Two processes saving at once lose nothing. A file that cannot be read or
 * is invalid is reported with its path and problem and never overwritten:
 * changes fail with that message until the user fixes or removes it.
 *
 * @example
 * ```ts
 * const file = permissionsPath(homeDir);
 * const added = await addRules(file, [{ tool: "execute_command", pattern: "npm test *", action: "allow", scope: "/repo" }]);
 * if (!added.ok) console.error(added.error);
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import * as z from "zod";
import type { PermissionRule, RuleDraft } from "./rules.ts";
import { readTextFile } from "../tools/bounded_read.ts";

/** How long a change waits for another process's lock before it fails. */
export const LOCK_TIMEOUT_MS = 10_000;

/**
 * The valid rules, or why the file cannot be used at all. `problems` names
 * each rule that was skipped (its index and field); valid rules, deny rules
 * above all, stay in force around a bad one.
 */
export type RulesResult =
  | { ok: true; rules: PermissionRule[]; problems?: string[] }
  | { ok: false; error: string };

const ruleSchema = z.looseObject({
  id: z.string().min(1),
  tool: z.string().min(1),
  pattern: z.string().min(1),
  action: z.enum(["allow", "deny"]),
  scope: z.string().min(1),
  createdAt: z.string(),
});

const fileSchema = z.looseObject({ version: z.number().optional(), rules: z.array(z.unknown()) });

/** `<home>/config/permissions.json`. */
export function permissionsPath(homeDir: string): string {
  return join(homeDir, "config", "permissions.json");
}

/** Reads the rules; a missing or empty file has none, a bad rule is skipped and named. */
export async function loadRules(file: string): Promise<RulesResult> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { ok: true, rules: [] };
    return { ok: false, error: `Cannot read "${file}": ${message(e)}` };
  }
  if (text.trim() === "") return { ok: true, rules: [] };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Cannot read "${file}": not valid JSON (${message(e)})` };
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    return { ok: false, error: `Cannot read "${file}": ${issueText(parsed.error)}` };
  }
  const rules: PermissionRule[] = [];
  const problems: string[] = [];
  parsed.data.rules.forEach((raw, i) => {
    const rule = ruleSchema.safeParse(raw);
    if (rule.success) rules.push(rule.data as PermissionRule);
    else problems.push(`Skipped rule ${i} of "${file}": ${issueText(rule.error, `rules[${i}]`)}`);
  });
  return problems.length ? { ok: true, rules, problems } : { ok: true, rules };
}

function issueText(error: z.ZodError, base = ""): string {
  const issue = error.issues[0];
  const field = base + issue.path.map((k) => (typeof k === "number" ? `[${k}]` : `.${String(k)}`))
    .join("");
  const what = issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
  return `${field ? `field "${field.replace(/^\./, "")}": ` : ""}${what}`;
}

/**
 * Changes the rules under the lock: reads the current file, applies
 * `change`, writes the result atomically. Returns the new list.
 */
export async function updateRules(
  file: string,
  change: (rules: PermissionRule[]) => PermissionRule[],
): Promise<RulesResult> {
  try {
    await Deno.mkdir(dirname(file), { recursive: true });
  } catch (e) {
    return { ok: false, error: `Cannot create "${dirname(file)}": ${message(e)}` };
  }
  return await withLock(`${file}.lock`, async () => {
    const current = await loadRules(file);
    if (!current.ok) return current;
    if (current.problems) {
      // Rewriting would drop the skipped rules: the user fixes them first.
      return { ok: false, error: current.problems.join("; ") };
    }
    const next = change(current.rules);
    const body = JSON.stringify({ version: 1, rules: next }, null, 2) + "\n";
    try {
      await writeAtomic(file, body);
    } catch (e) {
      return { ok: false, error: `Cannot write "${file}": ${message(e)}` };
    }
    return { ok: true, rules: next };
  });
}

/** Adds rules with fresh ids (unique in the file); returns the added ones. */
export async function addRules(file: string, drafts: readonly RuleDraft[]): Promise<RulesResult> {
  const added: PermissionRule[] = [];
  const r = await updateRules(file, (rules) => {
    const taken = new Set(rules.map((x) => x.id));
    const createdAt = new Date().toISOString();
    for (const d of drafts) {
      const rule: PermissionRule = { id: newRuleId(taken), ...d, createdAt };
      taken.add(rule.id);
      added.push(rule);
    }
    return [...rules, ...added];
  });
  return r.ok ? { ok: true, rules: added } : r;
}

/** Removes the rule `id`; `removed` is null when there was none. */
export async function revokeRule(
  file: string,
  id: string,
): Promise<{ ok: true; removed: PermissionRule | null } | { ok: false; error: string }> {
  let removed: PermissionRule | null = null;
  const r = await updateRules(file, (rules) => {
    removed = rules.find((x) => x.id === id) ?? null;
    return rules.filter((x) => x.id !== id);
  });
  return r.ok ? { ok: true, removed } : r;
}

/** A short id not in `taken`: `p-` (or `<prefix>-`) and six hex digits. */
export function newRuleId(taken: ReadonlySet<string>, prefix = "p"): string {
  for (;;) {
    const id = `${prefix}-` + crypto.randomUUID().replace(/-/g, "").slice(0, 6);
    if (!taken.has(id)) return id;
  }
}

/** Changes in this process run one at a time (the OS lock handles other processes). */
const queues = new Map<string, Promise<unknown>>();

async function withLock(lockPath: string, fn: () => Promise<RulesResult>): Promise<RulesResult> {
  const before = queues.get(lockPath) ?? Promise.resolve();
  const run = before.then(() => lockedRun(lockPath, fn));
  const settled = run.catch(() => undefined);
  queues.set(lockPath, settled);
  try {
    return await run;
  } finally {
    if (queues.get(lockPath) === settled) queues.delete(lockPath);
  }
}

async function lockedRun(lockPath: string, fn: () => Promise<RulesResult>): Promise<RulesResult> {
  let lockFile: Deno.FsFile;
  try {
    lockFile = await Deno.open(lockPath, { create: true, write: true });
  } catch (e) {
    return { ok: false, error: `Cannot open the lock "${lockPath}": ${message(e)}` };
  }
  const locking = lockFile.lock(true);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((res) => {
    timer = setTimeout(() => res("timeout"), LOCK_TIMEOUT_MS);
  });
  let got: "locked" | "timeout";
  try {
    got = await Promise.race([locking.then(() => "locked" as const), timeout]);
  } catch (e) {
    lockFile.close();
    return { ok: false, error: `Cannot lock "${lockPath}": ${message(e)}` };
  } finally {
    clearTimeout(timer);
  }
  if (got === "timeout") {
    // Close once the pending lock call returns, so a late lock is released at once.
    locking.finally(() => lockFile.close()).catch(() => undefined);
    return {
      ok: false,
      error: `Cannot save permission rules: another process has held "${lockPath}" for ${
        LOCK_TIMEOUT_MS / 1000
      } s; try again`,
    };
  }
  try {
    return await fn();
  } finally {
    await lockFile.unlock().catch(() => undefined);
    lockFile.close();
  }
}

async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    const f = await Deno.open(tmp, { create: true, write: true, truncate: true });
    try {
      const data = new TextEncoder().encode(text);
      let off = 0;
      while (off < data.length) off += await f.write(data.subarray(off));
      await f.syncData();
    } finally {
      f.close();
    }
    await Deno.rename(tmp, file);
  } catch (e) {
    await Deno.remove(tmp).catch(() => undefined);
    throw e;
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
