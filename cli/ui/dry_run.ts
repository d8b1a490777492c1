/**
 * The end-of-run dry-run summary: the files that would change, one unified
 * diff of them all, and the calls that were not run with each gate's
 * verdict.
 *
 * @module
 */
import type { Verdict } from "../../interfaces/tool.ts";
import type { DryRunReport } from "../../core/permission/dry_run_report.ts";
import type { Palette } from "./colors.ts";
import { visibleDeep } from "../../core/protocol/visible.ts";

/** Renders `report` for the terminal; ends with a newline. */
export function renderDryRun(raw: DryRunReport, c: Palette): string {
  const report = visibleDeep(raw);
  const out = [c.bold(c.yellow("Dry run: nothing was changed on disk."))];
  const changes = report.files.length + report.directories.length;
  if (changes === 0) out.push("No file would change.");
  else {
    out.push(c.bold(`Files it would change (${changes}):`));
    for (const f of report.files) out.push(`  ${f.action} ${f.path}`);
    for (const d of report.directories) out.push(`  ${d.action} directory ${d.path}/`);
    if (report.diff !== "") out.push(colorDiff(report.diff.trimEnd(), c));
  }
  if (report.commands.length === 0) out.push("No command would have run.");
  else {
    out.push(c.bold(`Commands it would have run (${report.commands.length}):`));
    for (const cmd of report.commands) {
      const [first, ...rest] = cmd.command.split("\n");
      out.push(`  $ ${first}`, ...rest.map((l) => `    ${l}`));
      out.push(c.dim(`    in ${cmd.cwd}`));
      out.push(c.dim(`    ${cmd.verdicts.map(verdictText).join(" · ")}`));
    }
  }
  return out.join("\n") + "\n";
}

/** One line after a chat task: how much the dry-run holds so far. */
export function dryRunTally(report: DryRunReport): string {
  const files = report.files.length + report.directories.length;
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? "" : "s"}`;
  return `Dry run so far: ${n(files, "file change")} in memory, ` +
    `${n(report.commands.length, "command")} not run (the full diff is shown when you quit)\n`;
}

/** `security pass (rule)` */
export function verdictText(v: Verdict): string {
  return `${v.gate} ${v.action}${v.rule ? ` (${v.rule})` : ""}`;
}

function colorDiff(diff: string, c: Palette): string {
  return diff.split("\n").map((l) => {
    if (l.startsWith("+++") || l.startsWith("---")) return c.bold(l);
    if (l.startsWith("+")) return c.green(l);
    if (l.startsWith("-")) return c.red(l);
    if (l.startsWith("@@")) return c.cyan(l);
    return l;
  }).join("\n");
}
