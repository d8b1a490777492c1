/**
 * The sandbox gate: what happens to `execute_command` and `start_process`
 * when the OS sandbox does not hold them.
 *
 * - Sandbox on: passes (the rule names what confines the command).
 * - `--sandbox off`: asks once per session in a terminal; without one the
 *   flag itself is the confirmation.
 * - No sandbox works here (Windows, old kernels): every command asks, even
 *   with `--yes` (the gate asks itself, so `--yes` cannot answer for the
 *   user); without a terminal the command is refused. `sandbox.unconfined:
 *   "allow"` in the user's settings.json turns this off.
 *
 * @module
 */
import type { Gate, GateInput, Verdict } from "../../interfaces/tool.ts";
import type { SandboxState } from "./session.ts";

/** Tools whose commands the sandbox holds. */
export const SANDBOXED_TOOLS: ReadonlySet<string> = new Set(["execute_command", "start_process"]);

/** Options of {@link sandboxGate}. */
export interface SandboxGateOptions {
  state(): Promise<SandboxState>;
  /** Plan mode: commands may only run read-only in the sandbox. */
  readOnly(): boolean;
  /** `sandbox.unconfined` from settings.json. */
  unconfined: "ask" | "allow";
  /** `--yes`: the pipeline would answer "ask" by itself, so the gate asks. */
  autoApprove: boolean;
  /** A yes/no question in the terminal; null without one. */
  ask: ((question: string, detail: string) => Promise<boolean>) | null;
}

/** Creates the sandbox gate. */
export function sandboxGate(o: SandboxGateOptions): Gate {
  let offConfirmed = false;
  const v = (action: Verdict["action"], rule: string, reason?: string): Verdict => ({
    gate: "sandbox",
    action,
    rule,
    ...(reason ? { reason } : {}),
  });
  return {
    name: "sandbox",
    async check(input: GateInput): Promise<Verdict> {
      if (!SANDBOXED_TOOLS.has(input.tool.name)) return v("pass", "not a command");
      const state = await o.state();
      if (state.kind === "on") return v("pass", `confined by ${state.label}`);
      if (o.readOnly()) {
        return v(
          "deny",
          "plan mode: commands run read-only",
          "plan mode runs commands only read-only inside the OS sandbox, and here commands are " +
            "not sandboxed: finish the plan instead",
        );
      }
      const command = input.preview.kind === "exec" ? input.preview.command : input.call.tool;
      if (state.kind === "off") {
        if (offConfirmed || !o.ask) return v("pass", "--sandbox off");
        offConfirmed = await o.ask(
          "Run commands without the sandbox for the rest of this session?",
          "--sandbox off: commands can write anywhere your user can",
        );
        return offConfirmed ? v("pass", "--sandbox off (confirmed)") : v(
          "deny",
          "--sandbox off not confirmed",
          "The user did not confirm running commands without the sandbox",
        );
      }
      if (o.unconfined === "allow") return v("pass", "sandbox.unconfined: allow");
      const why = `no OS sandbox here (${state.reason})`;
      if (!o.autoApprove) {
        return v("ask", "no sandbox: every command asks", `${why}: the command can write anywhere`);
      }
      if (!o.ask) {
        return v(
          "deny",
          "no sandbox: every command asks",
          `${why}, so every command needs a person to approve it, even with --yes, and nobody ` +
            `can here. To run commands unconfined, set "sandbox": { "unconfined": "allow" } in ` +
            "your settings.json",
        );
      }
      const yes = await o.ask(`Run this command without a sandbox? ${command}`, why);
      return yes ? v("pass", "no sandbox: the user allowed it") : v(
        "deny",
        "no sandbox: the user denied it",
        "The user denied running it without a sandbox",
      );
    },
  };
}
