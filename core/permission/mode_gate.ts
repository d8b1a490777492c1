/**
 * The mode gate: in plan mode only reading tools and the meta tools run;
 * any write or exec call is refused here, not merely discouraged. Two
 * exceptions: `execute_command`, when the OS sandbox runs it read-only, and
 * an MCP tool marked read-only (its `readOnlyHint`, or its server marked
 * `readOnly`).
 *
 * @module
 */
import type { Gate, GateInput, Verdict } from "../../interfaces/tool.ts";

/** The two modes of a session. */
export type Mode = "agent" | "plan";

/** Options of {@link modeGate}. */
export interface ModeGateOptions {
  /**
   * Whether the OS sandbox holds commands read-only in plan mode; then
   * `execute_command` is allowed there (a command that tries to write fails).
   */
  readOnlyCommands?(): boolean;
}

/** Creates the mode gate; `mode()` is read on every call so it can switch. */
export function modeGate(mode: () => Mode, options: ModeGateOptions = {}): Gate {
  return {
    name: "mode",
    check(input: GateInput): Verdict {
      const kind = input.tool.kind;
      if (
        mode() === "plan" && input.tool.name === "execute_command" && options.readOnlyCommands?.()
      ) {
        return { gate: "mode", action: "pass", rule: "plan mode: commands run read-only" };
      }
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
