/**
 * The one gate pipeline every tool call passes: mode → security →
 * rules/approval → step → dry-run. Gates only judge; the pipeline resolves
 * "ask" through the {@link Confirm} port (or `--yes`), and the first deny wins.
 *
 * @module
 */
import type { Confirm, Gate, GateInput, Verdict } from "../../interfaces/tool.ts";

/** A gate that can remember "allow always" answers. */
export interface RememberingGate extends Gate {
  /** Stores an allow rule for calls like this one and returns its description. */
  remember(input: GateInput): string;
}

/** What to do with a call, with every verdict that led there. */
export interface PipelineDecision {
  action: "run" | "deny" | "simulate";
  /** For the model when denied or simulated. */
  reason: string;
  verdicts: Verdict[];
  /** What allowed it: a rule, `--yes`, or the user's answer. */
  allowedBy?: string;
}

/** How the pipeline is set up for one session. */
export interface PipelineOptions {
  gates: Gate[];
  /** The approval prompt; null when nobody can answer (no terminal, `run`). */
  confirm: Confirm | null;
  /** `--yes`: approve whatever would be asked; blocked calls stay blocked. */
  autoApprove: boolean;
}

/** Runs the gates in order for each call. */
export class Pipeline {
  constructor(private readonly options: PipelineOptions) {}

  /** The gates, in order (for display). */
  get gates(): readonly Gate[] {
    return this.options.gates;
  }

  /**
   * Warms each gate that can be (see `Gate.warm`), one at a time, awaiting
   * `step()` in between; a failure only means the first call pays. Last
   * gates first: every call reaches the approval gate, while the security
   * rules run only for calls that change files or run commands.
   */
  async warm(
    step: () => Promise<void>,
    samples: readonly GateInput[] = [],
    large?: () => Promise<void>,
  ): Promise<void> {
    for (const gate of this.options.gates.toReversed()) {
      if (gate.warm === undefined) continue;
      await step();
      await gate.warm(step, samples, large).catch(() => {});
    }
  }

  /** Decides one call. */
  async decide(input: GateInput): Promise<PipelineDecision> {
    const verdicts: Verdict[] = [];
    let simulate: Verdict | undefined;
    for (const gate of this.options.gates) {
      const v = await gate.check(input);
      verdicts.push(v);
      if (v.action === "deny") {
        return { action: "deny", reason: denial(v), verdicts };
      }
      if (v.action === "simulate") simulate ??= v;
    }
    const asks = verdicts.filter((v) => v.action === "ask");
    let allowedBy = verdicts.map((v) => v.rule).filter(Boolean).pop();
    if (asks.length > 0) {
      const answer = await this.resolveAsk(input, verdicts, asks, simulate !== undefined);
      if (answer.deny !== undefined) {
        return { action: "deny", reason: answer.deny, verdicts };
      }
      allowedBy = answer.allowedBy;
    }
    if (simulate) {
      return { action: "simulate", reason: simulate.reason ?? "simulated", verdicts, allowedBy };
    }
    return { action: "run", reason: "", verdicts, allowedBy };
  }

  private async resolveAsk(
    input: GateInput,
    verdicts: Verdict[],
    asks: Verdict[],
    simulated: boolean,
  ): Promise<{ allowedBy?: string; deny?: string }> {
    const why = asks.map((v) => v.reason).filter(Boolean).join("; ");
    const firm = asks.filter((v) => v.firm);
    if (this.options.autoApprove && firm.length === 0) {
      verdicts.push({ gate: "approval", action: "pass", rule: "--yes" });
      return { allowedBy: "--yes" };
    }
    const confirm = this.options.confirm;
    if (!confirm && simulated) {
      // Dry-run with nobody to ask: the call only runs in simulation, so say it would ask.
      const rule = "would ask: the call is only simulated";
      verdicts.push({ gate: "approval", action: "pass", reason: why || undefined, rule });
      return { allowedBy: rule };
    }
    if (!confirm && firm.length > 0) {
      const reason = `${input.call.tool} needs a person's approval, which --yes does not give: ` +
        firm.map((v) => v.reason).filter(Boolean).join("; ");
      verdicts.push({ gate: "approval", action: "deny", reason, rule: "firm ask" });
      return { deny: reason };
    }
    if (!confirm) {
      const reason =
        `${input.call.tool} needs approval (${why || "it changes files or runs commands"}) ` +
        "and nobody can approve it here: rerun with --yes to approve such calls";
      verdicts.push({ gate: "approval", action: "deny", reason, rule: "no terminal" });
      return { deny: reason };
    }
    const answer = await confirm.ask(input, verdicts);
    if (answer.kind === "deny") {
      const reason = answer.reason
        ? `The user denied this call: ${answer.reason}`
        : "The user denied this call";
      verdicts.push({ gate: "approval", action: "deny", reason, rule: "user: deny" });
      return { deny: reason };
    }
    if (answer.kind === "always") {
      const rules = this.options.gates
        .filter((g): g is RememberingGate => "remember" in g)
        .map((g) => g.remember(input));
      const rule = `user: allow always (${rules.join(", ")})`;
      verdicts.push({ gate: "approval", action: "pass", rule });
      return { allowedBy: rule };
    }
    verdicts.push({ gate: "approval", action: "pass", rule: "user: allow once" });
    return { allowedBy: "user: allow once" };
  }
}

function denial(v: Verdict): string {
  const why = v.reason ?? "refused";
  return `Blocked by the ${v.gate} gate${v.rule ? ` (rule ${v.rule})` : ""}: ${why}`;
}
