/**
 * The approval gate: decides from permission rules (persisted in
 * `<home>/config/permissions.json`, plus in-memory `--allow`/`--deny` rules
 * and "allow always" answers of this session) and the paths guard.
 *
 * A bad rule in permissions.json is skipped (and reported); when the file
 * cannot be read at all, every call no flag or session rule allows asks,
 * and `--yes` does not approve it (a firm ask).
 *
 * Order: a matching deny rule denies (first deny wins); the paths guard asks
 * (outside the working directory — firmly for writes, which `--yes` does not
 * approve —, writes to `.git/`, `.minoc/`, `.env*`, reads of `.env*` unless
 * an allow rule covers them);
 * reading and meta tools pass; a call the model marked `requires_approval`
 * asks; allow rules covering the whole call pass; everything else asks.
 *
 * The gate is also the {@link RuleKeeper} the approval prompt uses to offer
 * and store "allow always" rules, since a {@link Decision} carries no rule.
 *
 * @example
 * ```ts
 * const gate = approvalGate({ projectDir: cwd, homeDir, extraRules, onWarning: warn });
 * const confirm = terminalConfirm(write, c, onCancel, () => gate);
 * ```
 * @module
 */
import { serverPrefix } from "../protocol/mcp_names.ts";
import { type KeepOutcome, RuleSource } from "./rule_source.ts";
import type { GateInput, Verdict } from "../../interfaces/tool.ts";
import type { RememberingGate } from "./pipeline.ts";
import { type GuardFinding, guardPaths, realDir, resolveReal } from "./paths_guard.ts";
import {
  type CallSubject,
  callSubject,
  describeRule,
  evaluateRules,
  type PermissionRule,
  type RuleDraft,
  ruleLabel,
} from "./rules.ts";
import { externalRules, proposeRules, type RuleProposal } from "./rules_propose.ts";

/** How the approval gate is set up. */
export interface ApprovalOptions {
  /** Rule scope and base of relative path patterns; default: each call's `cwd`. */
  projectDir?: string;
  /** The `.minoc` home; rules persist in its `config/permissions.json`. Absent: nothing persists. */
  homeDir?: string;
  /** In-memory rules (`--allow` / `--deny`), checked with the persisted ones. */
  extraRules?: readonly PermissionRule[];
  /** Told once per distinct problem, e.g. an invalid permissions.json. */
  onWarning?(message: string): void;
}

/** The rule the user picked in the prompt. */
export interface RuleChoice {
  patterns: string[];
  /** The rule's tool when it is not the call's (a whole MCP server: `mcp__<server>__*`). */
  tool?: string;
  scope: "project" | "everywhere";
}

export type { KeepOutcome };

/** A proposal with the project it would be scoped to. */
export interface KeeperProposal extends RuleProposal {
  projectDir: string;
}

/** Offers and stores "allow always" rules; the approval prompt's side of the gate. */
export interface RuleKeeper {
  /** The rules "Allow always" can store for this call. */
  propose(input: GateInput): KeeperProposal;
  /** Stores the chosen rule(s); the next `remember(input)` reports them. */
  keep(input: GateInput, choice: RuleChoice): Promise<KeepOutcome>;
}

/** The approval gate with its rule keeper. */
export interface ApprovalGate extends RememberingGate, RuleKeeper {}

interface Seen {
  subject: CallSubject;
  finding: GuardFinding | null;
}

/** Creates the approval gate. With no options it keeps "allow always" answers for the session only. */
export function approvalGate(options: ApprovalOptions = {}): ApprovalGate {
  const store = new RuleSource(options);
  const seen = new WeakMap<GateInput, Seen>();
  const kept = new WeakMap<GateInput, KeepOutcome>();
  const projectOf = (input: GateInput) => options.projectDir ?? input.cwd;
  // Rules are scoped to the project's real path, so a symlinked way in finds them too.
  const canonical = new Map<string, string>();
  const scopeOf = (input: GateInput) => canonical.get(projectOf(input)) ?? projectOf(input);
  const drafts = (input: GateInput, choice: RuleChoice): RuleDraft[] =>
    choice.patterns.map((pattern) => ({
      tool: choice.tool ?? input.tool.name,
      pattern,
      action: "allow",
      scope: choice.scope === "everywhere" ? "*" : scopeOf(input),
    }));
  const propose = (input: GateInput): KeeperProposal => {
    const projectDir = projectOf(input);
    const ext = input.tool.external;
    if (ext) return { ...externalRules(input.tool.name, serverPrefix(ext.server)), projectDir };
    const s = seen.get(input) ?? { subject: callSubject(input, projectDir), finding: null };
    if (s.finding && !s.finding.rulesMayAllow) {
      return { tool: input.tool.name, variants: [], unavailable: s.finding.reason, projectDir };
    }
    return { ...proposeRules(input.tool.name, s.subject), projectDir };
  };
  return {
    name: "approval",
    async check(input: GateInput): Promise<Verdict> {
      const projectDir = projectOf(input);
      const real = await realDir(projectDir);
      canonical.set(projectDir, real);
      const s = await inspect(input, projectDir, real);
      seen.set(input, s);
      const all = await store.all();
      const rules = all.rules.map((r) => r.scope === real ? { ...r, scope: projectDir } : r);
      const found = evaluateRules(rules, input.tool.name, s.subject, projectDir);
      if (all.unreadable !== undefined && !found.allow && input.tool.kind !== "meta") {
        return {
          gate: "approval",
          action: "ask",
          firm: true,
          rule: "permissions.json unreadable",
          reason: `a deny rule might cover this call, but ${all.unreadable}`,
        };
      }
      return judge(input, s.finding, found);
    },
    propose,
    async warm(step: () => Promise<void>, samples: readonly GateInput[]): Promise<void> {
      // What a first check reads: the project's real path and the rule files.
      await realDir(options.projectDir ?? Deno.cwd());
      await store.all();
      // A check keeps nothing but what the same real call would (the project's real path).
      for (const input of samples) {
        await step();
        await this.check(input);
      }
    },
    async keep(input: GateInput, choice: RuleChoice): Promise<KeepOutcome> {
      const outcome = await store.save(drafts(input, choice));
      kept.set(input, outcome);
      return outcome;
    },
    remember(input: GateInput): string {
      const done = kept.get(input);
      if (done) return keptText(done, scopeOf(input));
      const first = propose(input).variants[0];
      if (!first) {
        return `nothing remembered: ${propose(input).unavailable ?? "no rule fits this call"}`;
      }
      const rules = store.addSession(
        drafts(input, { patterns: first.patterns, tool: first.tool, scope: "project" }),
      );
      return keptText({ rules, saved: false }, scopeOf(input));
    },
  };
}

/** The call's subject and what the paths guard finds; `realProject`: the project's real path. */
async function inspect(input: GateInput, projectDir: string, realProject: string): Promise<Seen> {
  const subject = callSubject(input, projectDir);
  if (subject.kind !== "paths") return { subject, finding: null };
  const paths = await resolveReal(subject.paths, realProject);
  const finding = guardPaths(paths, {
    cwd: input.cwd,
    realCwd: input.cwd === projectDir ? realProject : await realDir(input.cwd),
    write: input.tool.kind === "write",
  });
  return { subject: { kind: "paths", paths }, finding };
}

function judge(
  input: GateInput,
  finding: GuardFinding | null,
  found: ReturnType<typeof evaluateRules>,
): Verdict {
  const { tool, call } = input;
  if (found.deny) {
    const r = found.deny;
    return {
      gate: "approval",
      action: "deny",
      rule: ruleLabel(r),
      reason: `the user's rule ${r.id} denies ${r.tool} on "${r.pattern}"`,
    };
  }
  if (finding && !(finding.rulesMayAllow && found.allow)) {
    // A secret read is firm: --yes alone does not send secrets to the model; a rule can. A write
    // outside the working directory is firm too: --yes does not let file tools go where the
    // sandbox refuses commands (minoc's own program cache, shell start-up files, other projects).
    const firm = finding.rulesMayAllow || finding.firm ? { firm: true } : {};
    return { gate: "approval", action: "ask", reason: finding.reason, rule: finding.rule, ...firm };
  }
  if (tool.kind === "read" || tool.kind === "meta") {
    return { gate: "approval", action: "pass", rule: `default: ${tool.kind} tools run` };
  }
  if (/^\s*true\s*$/i.test(String(call.params.requires_approval ?? ""))) {
    return {
      gate: "approval",
      action: "ask",
      reason: "the model asked for approval",
      rule: "requires_approval",
    };
  }
  if (found.allow) {
    return { gate: "approval", action: "pass", rule: found.allow.map(ruleLabel).join(", ") };
  }
  return {
    gate: "approval",
    action: "ask",
    reason: `${tool.kind} tools ask before they run`,
    rule: `default: ${tool.kind} tools ask`,
  };
}

/** How stored rules are reported, e.g. in the pipeline's "allow always" verdict. */
export function keptText(outcome: KeepOutcome, projectDir: string): string {
  const list = outcome.rules.map((r) => `${r.id} ${describeRule(r, projectDir)}`).join(", ");
  return outcome.saved ? list : `${list}, for this session only`;
}
