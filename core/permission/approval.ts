/**
 * The approval gate: reading runs freely, writing and running commands ask,
 * unless the user said "allow always" for that tool in this session.
 *
 * @module
 */
import type { GateInput, Verdict } from "../../interfaces/tool.ts";
import type { RememberingGate } from "./pipeline.ts";

/** Creates the approval gate with an empty session allow list. */
export function approvalGate(): RememberingGate {
  const allowed = new Set<string>();
  return {
    name: "approval",
    check(input: GateInput): Verdict {
      const { tool, call } = input;
      if (tool.kind === "read" || tool.kind === "meta") {
        return { gate: "approval", action: "pass", rule: `default: ${tool.kind} tools run` };
      }
      const forced = /^\s*true\s*$/i.test(String(call.params.requires_approval ?? ""));
      if (allowed.has(tool.name) && !forced) {
        return { gate: "approval", action: "pass", rule: `session: allow always ${tool.name}` };
      }
      return {
        gate: "approval",
        action: "ask",
        reason: forced ? "the model asked for approval" : `${tool.kind} tools ask before they run`,
        rule: `default: ${tool.kind} tools ask`,
      };
    },
    remember(input: GateInput): string {
      allowed.add(input.tool.name);
      return `${input.tool.name} for this session`;
    },
  };
}
