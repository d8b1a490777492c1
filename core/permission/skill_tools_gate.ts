/**
 * The skill gate: while a skill whose front matter lists `allowed-tools` is
 * in use, a call to any other tool is denied, with a reason that names the
 * skill, the tool and the list. It never grants: a listed tool still passes
 * every other gate. Finishing, asking and switching skills stay possible
 * (see {@link ALWAYS_ALLOWED}), and so do the scripts of the skill in use.
 *
 * @example
 * ```ts
 * const gates = [modeGate(() => mode), skillToolsGate(() => host.active()), ...];
 * ```
 * @module
 */
import type { Gate, GateInput, Verdict } from "../../interfaces/tool.ts";
import { ALWAYS_ALLOWED, describeGrants, grantCovers, readGrants } from "./skill_tools.ts";

/** What the gate needs to know about the skill in use. */
export interface ActiveSkill {
  name: string;
  allowedTools: readonly string[];
}

const GATE = "skill";

/**
 * Creates the skill gate; `active()` is read on every call and returns the
 * skill in use, or undefined when none is.
 */
export function skillToolsGate(active: () => ActiveSkill | undefined): Gate {
  return {
    name: GATE,
    check(input: GateInput): Verdict {
      const skill = active();
      if (!skill || skill.allowedTools.length === 0) return { gate: GATE, action: "pass" };
      const tool = input.tool.name;
      const scriptOf = tool === "run_skill_script" ? scriptSkill(input) : undefined;
      if (ALWAYS_ALLOWED.has(tool) || scriptOf === skill.name) {
        return {
          gate: GATE,
          action: "pass",
          reason: `always available with skill "${skill.name}"`,
        };
      }
      const grants = readGrants(skill.allowedTools);
      const grant = grants.find((g) => grantCovers(g, input));
      if (grant) {
        return {
          gate: GATE,
          action: "pass",
          reason: `skill "${skill.name}" allows ${grant.source}`,
        };
      }
      const list = describeGrants(grants);
      const allows = list === ""
        ? `allows none of minoc's tools (allowed-tools: ${skill.allowedTools.join(", ")})`
        : `allows only ${list}`;
      return {
        gate: GATE,
        action: "deny",
        rule: `allowed-tools of skill "${skill.name}"`,
        reason: `Skill "${skill.name}" ${allows} while it is in use; ` +
          `${callText(input, scriptOf)} is not among them. ` +
          "Finish with attempt_completion or switch skills with use_skill.",
      };
    },
  };
}

/** The skill a `run_skill_script` call names. */
function scriptSkill(input: GateInput): string | undefined {
  const name = param(input, "name");
  return name === undefined ? undefined : name.trim();
}

/** The denied call in a few words: `list_files`, `execute_command "npm test"`. */
function callText(input: GateInput, scriptOf: string | undefined): string {
  const tool = input.tool.name;
  if (scriptOf !== undefined) return `${tool} for skill "${scriptOf}"`;
  const command = tool === "execute_command" || tool === "start_process"
    ? param(input, "command")
    : undefined;
  if (command === undefined) return tool;
  const short = command.length > 80 ? command.slice(0, 77) + "…" : command;
  return `${tool} "${short}"`;
}

function param(input: GateInput, name: string): string | undefined {
  const args = typeof input.args === "object" && input.args !== null
    ? input.args as Record<string, unknown>
    : {};
  const v = args[name] ?? input.call.params[name];
  return typeof v === "string" ? v : undefined;
}
