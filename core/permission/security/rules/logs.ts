/**
 * Rules for covering tracks and machine-wide policy, in every shell:
 *
 * - `clear-logs`: clearing or shrinking the system's logs — `journalctl
 *   --vacuum-*`/`--rotate`, `log erase`, writing, truncating or shredding
 *   files under `/var/log`, `auditctl -D`; `Clear-EventLog`,
 *   `Remove-EventLog`, `Limit-EventLog`, `wevtutil cl|clear-log|sl /e:false`,
 *   `EventLogSession…ClearLog(…)`.
 * - `machine-policy`: changing a machine-wide policy — `Set-ExecutionPolicy`
 *   for the machine (its default scope), `secedit /configure|/import`,
 *   `auditpol /set|/clear|/remove|/restore`, `gpupdate`, `lgpo`.
 *
 * @module
 */
import { lowerArgs, psValues } from "../flags.ts";
import { resolvedPath } from "../paths.ts";
import type { RuleContext, Segment } from "../types.ts";
import { defineRule, writeTargets } from "./helpers.ts";

/** Clearing system logs. */
export const clearLogs = defineRule(
  "clear-logs",
  "block",
  "critical",
  "Clearing system logs: journalctl --vacuum, writing or truncating /var/log, auditctl -D, Clear-EventLog, wevtutil cl",
  (seg, ctx) => unixLogs(seg, ctx) ?? windowsLogs(seg),
);

function unixLogs(seg: Segment, ctx: RuleContext): string | null {
  const n = seg.name;
  const args = lowerArgs(seg);
  if (n === "journalctl" && args.some((a) => /^--(vacuum-(time|size|files)|rotate)/.test(a))) {
    return `Deletes the system journal: ${seg.text}`;
  }
  if (n === "log" && args[0] === "erase") return `Erases the system log: ${seg.text}`;
  const auditOff = args.some((a, i) => a === "-e" && args[i + 1] === "0");
  if (n === "auditctl" && (args.includes("-d") || auditOff)) {
    return `Removes audit rules or turns auditing off: ${seg.text}`;
  }
  const targets = [...writeTargets(seg), ...(/^(shred|truncate)$/.test(n) ? seg.args : [])];
  const log = targets.find((w) => {
    const p = w.literal ? resolvedPath(w.text, ctx) : null;
    return p !== null && /^\/(var\/)?log(\/|$)|^\/private\/var\/log(\/|$)/.test(p);
  });
  return log ? `Overwrites a system log: ${seg.text}` : null;
}

function windowsLogs(seg: Segment): string | null {
  const n = seg.name;
  const args = lowerArgs(seg);
  if (/^(clear-eventlog|remove-eventlog|limit-eventlog|clear-winevent)$/.test(n)) {
    return `Clears Windows event logs: ${seg.text}`;
  }
  if (n === "wevtutil") {
    const verb = args[0] ?? "";
    const disables = /^(sl|set-log)$/.test(verb) &&
      args.some((a) => /^\/e(nabled)?:false$/.test(a));
    if (/^(cl|clear-log)$/.test(verb) || disables) return `Clears Windows event logs: ${seg.text}`;
  }
  if (/\.clearlog\s*\(/i.test(seg.text) && /eventlog/i.test(seg.text)) {
    return `Clears Windows event logs: ${seg.text}`;
  }
  return null;
}

/** Changing a machine-wide policy. */
export const machinePolicy = defineRule(
  "machine-policy",
  "block",
  "critical",
  "Machine-wide policy changes: Set-ExecutionPolicy for the machine, secedit /configure, auditpol /set, gpupdate",
  (seg) => {
    const n = seg.name;
    const args = lowerArgs(seg);
    if (n === "set-executionpolicy") {
      const scope = psValues(seg.args, "scope").map((w) => w.text.toLowerCase());
      if (scope.length === 0 || scope.includes("localmachine")) {
        return `Changes the machine's PowerShell execution policy: ${seg.text}`;
      }
    }
    if (n === "secedit" && args.some((a) => /^\/(configure|import)$/.test(a))) {
      return `Changes the machine's security policy: ${seg.text}`;
    }
    if (n === "auditpol" && args.some((a) => /^\/(set|clear|remove|restore)\b/.test(a))) {
      return `Changes the machine's audit policy: ${seg.text}`;
    }
    if (n === "gpupdate" || n === "lgpo") return `Applies machine group policy: ${seg.text}`;
    return null;
  },
);
