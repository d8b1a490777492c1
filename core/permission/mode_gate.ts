/**
 * The mode gate: in plan mode only reading tools and the meta tools run;
 * any write or exec call is refused here, not merely discouraged. An MCP tool
 * marked read-only (its `readOnlyHint`, or its server marked `readOnly`) may run.
 *
 * @module
 */
import type { Gate, GateInput, Verdict } from "../../interfaces/tool.ts";

/** The two modes of a session. */
export type Mode = "agent" | "plan";

/** Creates the mode gate; `mode()` is read on every call so it can switch. */
export function modeGate(mode: () => Mode): Gate {
  return {
    name: "mode",
    check(input: GateInput): Verdict {
      const kind = input.tool.kind;
      const readOnly = input.tool.external?.readOnly === true;
      if (mode() === "plan" && (kind === "write" || kind === "exec") && !readOnly) {
        return {
          gate: "mode",
          action: "deny",
          rule: "plan mode is read-only",
          reason: `plan mode is read-only: ${input.tool.name} is not available until the user ` +
            "switches to agent mode; finish the plan instead",
        };
      }
      if (mode() === "plan" && readOnly) {
        return { gate: "mode", action: "pass", rule: "plan mode: read-only MCP tool" };
      }
      return { gate: "mode", action: "pass", rule: `${mode()} mode` };
    },
  };
}
