/**
 * The approval prompt in a terminal: shows the call (tool, parameters, the
 * diff of a file change, why it asks, coloured by risk) and offers Allow
 * once / Allow always / Deny / Deny with a reason, chosen with the arrow
 * keys. "Allow always" then shows the exact rules it can store (a narrow
 * pattern or the exact call; this project or everywhere) and stores the
 * one picked through the {@link RuleKeeper}.
 *
 * @module
 */
import type { Confirm, Decision, GateInput, Verdict } from "../../interfaces/tool.ts";
import type {
  KeeperProposal,
  KeepOutcome,
  RuleChoice,
  RuleKeeper,
} from "../../core/permission/approval.ts";
import { COMMAND_TOOLS, describeRule } from "../../core/permission/rules.ts";
import type { Palette } from "../ui/colors.ts";
import { renderPreview } from "../ui/diff.ts";
import { visible, visibleDeep } from "../../core/protocol/visible.ts";

/** One entry of a select prompt. */
export interface PromptChoice<T> {
  name: string;
  value: T;
  description?: string;
  disabled?: string;
}

/** What a wildcard rule never covers (see core/permission/rules_danger.ts). */
const PINNED_NOTE = "; uses that run code, delete or write through their arguments " +
  "(find -exec, sed -i, python -c, git -c …) still ask";

type MainAnswer = "once" | "always" | "deny" | "reason";

/**
 * A {@link Confirm} that asks in the terminal; only use it when stdin is one.
 * `keeper` is read at each prompt (the gate may be built after the prompt);
 * without one, "Allow always" holds for this session only.
 */
export function terminalConfirm(
  write: (text: string) => void,
  c: Palette,
  onCancel?: () => void,
  keeper?: () => RuleKeeper | undefined,
): Confirm {
  return {
    async ask(input: GateInput, verdicts: readonly Verdict[]): Promise<Decision> {
      write(describeCall(input, verdicts, c) + "\n");
      const [{ default: select }, { default: askText }] = await Promise.all([
        import("@inquirer/select"),
        import("@inquirer/input"),
      ]);
      const k = keeper?.();
      const proposal = k?.propose(input);
      try {
        const answer = await select<MainAnswer>({
          message: `Allow ${input.call.tool}?`,
          choices: mainChoices(input, proposal),
        });
        if (answer === "once") return { kind: "once" };
        if (answer === "always") {
          if (!k || !proposal) return { kind: "always" };
          const pick = await select<RuleChoice | null>({
            message: "Rule to store",
            choices: alwaysChoices(proposal),
          });
          if (pick === null) return { kind: "once" };
          write(keptLine(await k.keep(input, pick), proposal.projectDir, c) + "\n");
          return { kind: "always" };
        }
        if (answer === "deny") return { kind: "deny" };
        const reason = await askText({ message: "Reason (sent to the model):" });
        return { kind: "deny", reason: reason.trim() || undefined };
      } catch (e) {
        if (e instanceof Error && e.name === "ExitPromptError") {
          onCancel?.();
          return { kind: "deny", reason: "the user cancelled the prompt" };
        }
        throw e;
      }
    },
  };
}

/** The first question's choices; "Allow always" names the rule it would store. */
export function mainChoices(
  input: GateInput,
  proposal: KeeperProposal | undefined,
): PromptChoice<MainAnswer>[] {
  const always: PromptChoice<MainAnswer> = proposal === undefined
    ? { name: `Allow always (${input.tool.name}, this session)`, value: "always" }
    : proposal.variants.length === 0
    ? {
      name: "Allow always",
      value: "always",
      disabled: `(${proposal.unavailable ?? "no rule fits"})`,
    }
    : {
      name: "Allow always…",
      value: "always",
      description: `Stores ${
        ruleLines(proposal, 0, "project").join(", ")
      }; you pick the pattern and scope next`,
    };
  return [
    { name: "Allow once", value: "once" },
    always,
    { name: "Deny", value: "deny" },
    { name: "Deny with a reason", value: "reason", description: "The reason goes to the model" },
  ];
}

/**
 * The second question: every pattern variant in this project, and (where
 * offered) everywhere, each showing the exact rules it stores; last, a way
 * back to allowing once.
 */
export function alwaysChoices(proposal: KeeperProposal): PromptChoice<RuleChoice | null>[] {
  const out: PromptChoice<RuleChoice | null>[] = [];
  proposal.variants.forEach((v, i) => {
    const scopes: RuleChoice["scope"][] = v.everywhere ? ["project", "everywhere"] : ["project"];
    for (const scope of scopes) {
      const where = scope === "project" ? "in this project" : "everywhere";
      out.push({
        name: `${variantName(proposal.tool, v)}   ${where}`,
        value: v.tool
          ? { patterns: v.patterns, tool: v.tool, scope }
          : { patterns: v.patterns, scope },
        description: `Stores ${ruleLines(proposal, i, scope).join(", ")}` +
          (COMMAND_TOOLS.has(proposal.tool) && v.patterns.some((p) => p.includes("*"))
            ? PINNED_NOTE
            : ""),
      });
    }
  });
  out.push({ name: "Allow once only, store nothing", value: null });
  return out;
}

/** What a variant covers, as its choice says it. */
function variantName(tool: string, v: KeeperProposal["variants"][number]): string {
  if (v.tool) return `${v.tool} (every tool of this MCP server)`;
  if (tool.startsWith("mcp__")) return `${tool} (this tool, any arguments)`;
  return v.patterns.join("  +  ");
}

/** The rules variant `i` stores in `scope`, one line each. */
export function ruleLines(
  proposal: KeeperProposal,
  i: number,
  scope: RuleChoice["scope"],
): string[] {
  const v = proposal.variants[i];
  if (!v) return [];
  return v.patterns.map((pattern) => {
    const rule = {
      tool: v.tool ?? proposal.tool,
      pattern,
      action: "allow" as const,
      scope: scope === "everywhere" ? "*" : proposal.projectDir,
    };
    const text = describeRule(rule, proposal.projectDir);
    return scope === "project"
      ? text.replace(/\(this project\)$/, `(this project: ${proposal.projectDir})`)
      : text;
  });
}

/** What the prompt says after storing rules. */
export function keptLine(outcome: KeepOutcome, projectDir: string, c: Palette): string {
  const list = outcome.rules.map((r) => `${r.id} ${describeRule(r, projectDir)}`).join(", ");
  if (outcome.saved) return c.green(`  Saved rule ${list}`);
  const why = outcome.error ? `could not save it: ${outcome.error}; ` : "";
  return c.yellow(`  Rule ${list}: ${why}it holds until minoc exits`);
}

/** The text shown above the prompt. */
export function describeCall(input: GateInput, raw: readonly Verdict[], c: Palette): string {
  const out = [c.bold(c.cyan(visible(input.call.tool)))];
  const ext = input.tool.external;
  // An MCP tool's arguments are shown, never summed up: they are all the user can judge it by.
  const bulk = new Set(ext ? [] : input.tool.params.filter((p) => p.bulk).map((p) => p.name));
  const verdicts = visibleDeep(raw);
  for (const [name, value] of Object.entries(visibleDeep(input.call.params))) {
    const text = Array.isArray(value) ? value.join(", ") : value;
    out.push(`  ${c.dim(name + ":")} ${bulk.has(name) ? summarize(text) : clip(text)}`);
  }
  for (const v of verdicts) {
    if (v.action !== "ask") continue;
    const color = v.risk === "high" || v.risk === "critical" ? c.red : c.yellow;
    const risk = v.risk ? ` [${v.risk}]` : "";
    out.push(color(`  ${v.gate}${risk}: ${v.reason ?? "asks"}`));
  }
  if (ext) out.push(c.dim(`  runs on MCP server "${ext.server}": minoc cannot undo what it does`));
  out.push(...renderPreview(input.preview, c));
  return out.join("\n");
}

function summarize(text: string): string {
  const lines = text === "" ? 0 : text.split("\n").length;
  return `(${lines} lines, ${text.length} characters)`;
}

function clip(text: string): string {
  const one = text.replace(/\n/g, "⏎");
  return one.length > 200 ? one.slice(0, 197) + "..." : one;
}
