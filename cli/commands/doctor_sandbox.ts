/**
 * `minoc doctor`'s line about the commands' sandbox: what confines
 * `execute_command` and `start_process` here, whether `sandbox.network:
 * "off"` can be enforced, and, where nothing confines them, that every
 * command asks first.
 *
 * @module
 */
import { confinement } from "../../core/sandbox/confine.ts";
import type { SandboxSettings } from "../../core/config/settings.ts";
import type { Check } from "./doctor_checks.ts";

/** The `commands` check. */
export async function commandSandboxCheck(settings: SandboxSettings): Promise<Check> {
  const c = await confinement();
  if (c.kind === "none") {
    const then = settings.unconfined === "allow"
      ? 'they run unconfined (sandbox.unconfined is "allow")'
      : "each command asks first, even with --yes";
    return { name: "commands", verdict: "warn", detail: `not sandboxed (${c.reason}); ${then}` };
  }
  const abi = Number(/ABI (\d+)/.exec(c.label)?.[1] ?? 0);
  const net = c.kind === "seatbelt" || abi >= 4
    ? "network can be turned off"
    : `network cannot be turned off (Landlock ABI ${abi}; ABI 4, Linux 6.7, needed)`;
  const extra = settings.writable?.length ? ` + ${settings.writable.join(", ")}` : "";
  return {
    name: "commands",
    verdict: settings.network === "off" && c.kind === "landlock" && abi < 4 ? "warn" : "pass",
    detail: `sandboxed by ${c.label}: writes only in the project, its temp dir${extra}; ${net}`,
  };
}
