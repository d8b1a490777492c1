/**
 * Which calls the security gate judges: commands (a command tool's, or any
 * call whose preview is a command line), calls of tools that may change files,
 * and `set_env`. Every other call passes it with nothing to check, so the
 * session can answer those without loading the gate's rules and shell readers
 * (`lazy_gate.ts`); the gate itself asks the same question first
 * (`security.ts`), so the two cannot disagree.
 *
 * @example
 * ```ts
 * if (!securityJudges(input)) return { gate: "security", action: "pass" };
 * ```
 * @module
 */
import type { GateInput } from "../../interfaces/tool.ts";
import { COMMAND_TOOLS } from "./rules_subject.ts";

/** Whether the security gate has anything to judge in `input`. */
export function securityJudges(input: GateInput): boolean {
  return COMMAND_TOOLS.has(input.call.tool) || input.preview.kind === "exec" ||
    input.tool.kind === "write" || input.call.tool === "set_env";
}
