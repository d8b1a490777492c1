/**
 * Where the approval gate's rules come from: flags, this session's answers,
 * and permissions.json (looked at again at most every {@link RECHECK_MS}, read
 * again only when it changed; a broken file is told once and its rules are
 * left out, the others apply).
 *
 * @module
 */
import type { PermissionRule, RuleDraft } from "./rules.ts";
import { addRules, loadRules, newRuleId, permissionsPath } from "./rules_store.ts";

/**
 * How long what permissions.json held stays in force before the file is looked at again.
 * Another process's change counts from the next call after that; this session's own "allow
 * always" counts at once. Looking costs a `stat`, and when there is no file (the usual case)
 * its exception costs ~0.15 ms of every call, where a fast model's turn takes ~5 ms in all.
 */
export const RECHECK_MS = 1000;

/** What the source reads. */
export interface RuleSourceOptions {
  /** The `.minoc` home; rules persist in its `config/permissions.json`. Absent: nothing persists. */
  homeDir?: string;
  /** In-memory rules (`--allow` / `--deny`). */
  extraRules?: readonly PermissionRule[];
  /** Told once per distinct problem. */
  onWarning?(message: string): void;
}

/** What storing a choice did. */
export interface KeepOutcome {
  rules: PermissionRule[];
  /** False when the rules hold for this session only. */
  saved: boolean;
  /** Why saving failed. */
  error?: string;
}

/** Where the gate's rules come from: flags, this session's answers, permissions.json. */
export class RuleSource {
  private readonly file?: string;
  private readonly session: PermissionRule[] = [];
  private readonly warned = new Set<string>();

  constructor(private readonly options: RuleSourceOptions) {
    this.file = options.homeDir === undefined ? undefined : permissionsPath(options.homeDir);
  }

  /**
   * Every rule in force now. The file is looked at again once {@link RECHECK_MS}
   * passed, so other processes' changes count; it is read again only when its
   * size or modification time changed.
   */
  async all(): Promise<{ rules: PermissionRule[]; unreadable?: string }> {
    const extra = this.options.extraRules ?? [];
    if (this.file === undefined) return { rules: [...extra, ...this.session] };
    const loaded = await this.loadFile(this.file);
    const tell = (text: string) => {
      if (this.warned.has(text)) return;
      this.warned.add(text);
      this.options.onWarning?.(text);
    };
    if (!loaded.ok) {
      tell(
        `${loaded.error}; until it is fixed or removed, calls its rules might deny ask ` +
          "(--yes does not approve them)",
      );
      return { rules: [...extra, ...this.session], unreadable: loaded.error };
    }
    for (const p of loaded.problems ?? []) tell(`${p}; the other rules apply`);
    return { rules: [...extra, ...this.session, ...loaded.rules] };
  }

  private cached?: { stamp: string; result: Awaited<ReturnType<typeof loadRules>>; at: number };

  private async loadFile(file: string): Promise<Awaited<ReturnType<typeof loadRules>>> {
    const at = performance.now();
    const last = this.cached;
    if (last !== undefined && at - last.at < RECHECK_MS) return last.result;
    let stamp = "unknown"; // stays so when stat fails for another reason: loadRules says why
    try {
      const info = Deno.statSync(file);
      stamp = `${info.size}:${info.mtime?.getTime()}:${info.ino ?? ""}`;
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) {
        this.cached = { stamp: "none", result: { ok: true, rules: [] }, at };
        return this.cached.result;
      }
    }
    if (last?.stamp === stamp && stamp !== "unknown") {
      last.at = at;
      return last.result;
    }
    const result = await loadRules(file);
    this.cached = { stamp, result, at };
    return result;
  }

  /** Adds rules that hold until the process exits. */
  addSession(drafts: readonly RuleDraft[]): PermissionRule[] {
    const taken = new Set(this.session.map((r) => r.id));
    const createdAt = new Date().toISOString();
    const rules = drafts.map((d) => {
      const rule = { id: newRuleId(taken, "s"), ...d, createdAt };
      taken.add(rule.id);
      return rule;
    });
    this.session.push(...rules);
    return rules;
  }

  /** Persists rules; when that fails they hold for the session. */
  async save(drafts: readonly RuleDraft[]): Promise<KeepOutcome> {
    if (this.file === undefined) return { rules: this.addSession(drafts), saved: false };
    const added = await addRules(this.file, drafts);
    this.cached = undefined; // the next call reads the file as saved
    if (added.ok) return { rules: added.rules, saved: true };
    return { rules: this.addSession(drafts), saved: false, error: added.error };
  }
}
