/**
 * The commands' sandbox of one session: opens it (`--sandbox`, settings'
 * `sandbox`), says in one line at the start when commands are not confined,
 * and builds its gate and the escalation question.
 *
 * @example
 * ```ts
 * const box = openSessionSandbox(o, cwd, () => mode === "plan");
 * const gates = [...before, box.gate, approval];
 * ctx.sandbox = box.sandbox;
 * ```
 * @module
 */
import type { Gate } from "../interfaces/tool.ts";
import type { Settings } from "../core/config/settings.ts";
import { sandboxGate } from "../core/sandbox/gate.ts";
import type { SandboxMode } from "../core/sandbox/policy.ts";
import { openSandbox, type SessionSandbox } from "../core/sandbox/session.ts";

/** A yes/no question in the terminal. */
export type YesNo = (question: string, detail: string) => Promise<boolean>;

/** What the session needs from its options. */
export interface SandboxInputs {
  settings: Settings;
  /** `--sandbox` (default workspace-write). */
  sandbox?: SandboxMode;
  autoApprove: boolean;
  /** The terminal's yes/no question; absent in `run` and without a terminal. */
  yesNo?: YesNo;
  /** `--dry-run`: commands are not run, so nothing is said about the sandbox. */
  dryRun?: boolean;
  warn(message: string): void;
}

/** Opens the sandbox, warns when commands run unconfined, and builds the gate. */
export function openSessionSandbox(
  o: SandboxInputs,
  cwd: string,
  readOnly: () => boolean,
): { sandbox: SessionSandbox; gate: Gate } {
  const settings = o.settings.sandbox;
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "/";
  const yesNo = o.yesNo;
  const sandbox = openSandbox({
    mode: o.sandbox ?? "workspace-write",
    cwd,
    home,
    settings,
    readOnly,
    askEscalation: yesNo && ((command, paths) =>
      yesNo(
        "Run again without the sandbox?",
        `The sandbox refused writing to ${paths.map((p) => `"${p}"`).join(", ")} (${command})`,
      )),
  });
  // The OS is probed in the background; the line comes as soon as it is known.
  if (!o.dryRun) {
    void sandbox.state().then((state) => {
      if (state.kind === "none") {
        const then = settings.unconfined === "allow"
          ? 'they run unconfined (sandbox.unconfined is "allow")'
          : "each command asks first, even with --yes";
        o.warn(`commands are not sandboxed (${state.reason}): ${then}`);
      } else if (state.kind === "off") o.warn("--sandbox off: commands can write anywhere");
      else for (const note of state.notes) o.warn(`sandbox: ${note}`);
    });
  }
  const gate = sandboxGate({
    state: () => sandbox.state(),
    readOnly,
    unconfined: settings.unconfined ?? "ask",
    autoApprove: o.autoApprove,
    ask: yesNo ?? null,
  });
  return { sandbox, gate };
}
