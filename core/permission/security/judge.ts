/**
 * Applies the active rules to every segment and picks the worst verdict:
 * block over warn, then the higher risk, then the first found.
 *
 * @module
 */
import { matchesAny } from "./custom.ts";
import type { Finding, Risk, Rule, RuleContext, SecurityVerdict, Segment } from "./types.ts";

/** The rules in force for one configuration. */
export interface ActiveRules {
  /** Rules applied to each segment, built-in then custom. */
  segmentRules: readonly Rule[];
  /** Structural rules by id (disabled ones absent). */
  structural: ReadonlyMap<string, Rule>;
  /** Segments matching one of these are allowed. */
  exceptions: readonly RegExp[];
}

const RISK_RANK: Record<Risk, number> = { low: 0, medium: 1, high: 2, critical: 3 };
const ALLOW: SecurityVerdict = {
  verdict: "allow",
  rule: "",
  risk: "low",
  reason: "No rule matched",
  segment: "",
};

/**
 * The verdict for a command read into `segments` and `findings`.
 *
 * @example
 * ```ts
 * judge(segments, findings, active, { cwd: "/p", home: "/home/me" }).verdict; // "block"
 * ```
 */
export function judge(
  segments: readonly Segment[],
  findings: readonly Finding[],
  active: ActiveRules,
  ctx: RuleContext,
): SecurityVerdict {
  let best: SecurityVerdict = ALLOW;
  const consider = (rule: Rule, reason: string, segment: string) => {
    const v: SecurityVerdict = {
      verdict: rule.verdict,
      rule: rule.id,
      risk: rule.risk,
      reason,
      segment,
    };
    if (score(v) > score(best)) best = v;
  };
  for (const seg of segments) {
    if (isHelp(seg) || matchesAny(seg, active.exceptions)) continue;
    const here = seg.cwd === undefined || seg.cwd === ctx.cwd
      ? ctx
      : { ...ctx, cwd: seg.cwd, project: ctx.cwd };
    for (const rule of active.segmentRules) {
      const reason = rule.match(seg, here);
      if (reason !== null) consider(rule, reason, seg.text);
    }
  }
  for (const f of findings) {
    const rule = active.structural.get(f.rule);
    if (rule) consider(rule, f.reason, f.segment);
  }
  return best;
}

/** `tool --help`, `tool --version`, `tool /?`: only prints text. */
function isHelp(seg: Segment): boolean {
  return !seg.dynamic && !seg.code && seg.writes.length === 0 && seg.args.length === 1 &&
    /^(--help|--version|\/\?|-\?|-help)$/i.test(seg.args[0].text);
}

function score(v: SecurityVerdict): number {
  const verdict = v.verdict === "block" ? 2 : v.verdict === "warn" ? 1 : 0;
  return verdict * 10 + RISK_RANK[v.risk];
}
