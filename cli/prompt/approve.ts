/**
 * The approval prompt in a terminal: shows the call (tool, parameters, the
 * diff of a file change, why it asks) and offers Allow once / Allow always /
 * Deny / Deny with a reason, chosen with the arrow keys.
 *
 * @module
 */
import type { Confirm, Decision, GateInput, Verdict } from "../../interfaces/tool.ts";
import type { Palette } from "../ui/colors.ts";
import { renderDiff } from "../ui/diff.ts";

/** A {@link Confirm} that asks in the terminal; only use it when stdin is one. */
export function terminalConfirm(
  write: (text: string) => void,
  c: Palette,
  onCancel?: () => void,
): Confirm {
  return {
    async ask(input: GateInput, verdicts: readonly Verdict[]): Promise<Decision> {
      write(describeCall(input, verdicts, c) + "\n");
      const { select, input: askText } = await import("@inquirer/prompts");
      try {
        const answer = await select({
          message: `Allow ${input.call.tool}?`,
          choices: [
            { name: "Allow once", value: "once" },
            { name: `Allow always (${input.tool.name}, this session)`, value: "always" },
            { name: "Deny", value: "deny" },
            { name: "Deny with a reason", value: "reason" },
          ],
        });
        if (answer === "once" || answer === "always") return { kind: answer };
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

/** The text shown above the prompt. */
export function describeCall(input: GateInput, verdicts: readonly Verdict[], c: Palette): string {
  const out = [c.bold(c.cyan(`${input.call.tool}`))];
  const bulk = new Set(input.tool.params.filter((p) => p.bulk).map((p) => p.name));
  for (const [name, value] of Object.entries(input.call.params)) {
    const text = Array.isArray(value) ? value.join(", ") : value;
    out.push(`  ${c.dim(name + ":")} ${bulk.has(name) ? summarize(text) : clip(text)}`);
  }
  for (const v of verdicts) {
    if (v.action !== "ask") continue;
    const color = v.risk === "high" || v.risk === "critical" ? c.red : c.yellow;
    const risk = v.risk ? ` [${v.risk}]` : "";
    out.push(color(`  ${v.gate}${risk}: ${v.reason ?? "asks"}`));
  }
  const p = input.preview;
  if (p.kind === "edit") out.push(renderDiff(p.path, p.before, p.after, c));
  if (p.kind === "exec") out.push(`  ${c.dim("in")} ${p.cwd}\n  ${c.bold("$ " + p.command)}`);
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
