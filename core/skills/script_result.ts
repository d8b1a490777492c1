/**
 * What the model learns from a skill script run: the JSON summary it
 * printed on stdout (`status`, `artifacts`, `warnings` — other fields and
 * any other output are dropped) and the files it produced under `build/`.
 * The script's source and stderr never reach the model; the user sees
 * stderr's tail in the display.
 *
 * @example
 * ```ts
 * parseSummary('log line\n{"status":"ok","artifacts":["build/a.txt"]}');
 * // { status: "ok", artifacts: ["build/a.txt"], warnings: [] }
 * ```
 * @module
 */
import { relative } from "node:path";
import type { ToolResult } from "../../interfaces/tool.ts";
import { fail, ok } from "../tools/define.ts";
import type { SandboxOutcome } from "./sandbox.ts";

/** The summary a script prints as JSON on stdout. */
export interface ScriptSummary {
  status: string;
  artifacts: unknown[];
  warnings: string[];
}

/** Reads the summary: all of stdout as JSON, else its last line that is a JSON object. */
export function parseSummary(stdout: string): ScriptSummary | null {
  const tries = [stdout.trim(), ...stdout.trim().split("\n").reverse().map((l) => l.trim())];
  for (const t of tries) {
    if (!t.startsWith("{")) continue;
    try {
      const v = JSON.parse(t);
      if (typeof v !== "object" || v === null || Array.isArray(v)) continue;
      return {
        status: typeof v.status === "string" ? v.status : String(v.status ?? "unknown"),
        artifacts: Array.isArray(v.artifacts) ? v.artifacts : [],
        warnings: Array.isArray(v.warnings) ? v.warnings.map(String) : [],
      };
    } catch {
      // not JSON: try the next candidate
    }
  }
  return null;
}

/** Turns a run into the tool result: summary and produced files for the model, stderr for the user. */
export function describeRun(
  skill: string,
  shown: string,
  o: SandboxOutcome,
  projectDir: string,
  maxFiles: number,
): ToolResult {
  const head = `[${skill} ${shown}: ${ending(o)} in ${(o.ms / 1000).toFixed(1)} s]`;
  if (o.ending === "busy" || o.ending === "spawn_failed" || o.ending === "unconfined") {
    return fail(o.ending, `${head} ${o.message ?? "it could not start"}`);
  }
  const rel = (p: string) => relative(projectDir, p).replace(/\\/g, "/");
  const summary = parseSummary(o.stdout);
  const lines = [head];
  lines.push(
    summary
      ? `Summary: ${capJson(summary)}`
      : `The script printed no JSON summary on stdout (expected {"status", "artifacts", "warnings"}); its output is not shown.`,
  );
  const produced = o.produced.map(rel);
  const listed = produced.slice(0, 50);
  lines.push(
    produced.length
      ? `Files produced: ${listed.join(", ")}${
        produced.length > 50 ? ` and ${produced.length - 50} more` : ""
      }`
      : "Files produced: none",
  );
  const problems = refusals(o, rel, produced.length, maxFiles);
  lines.push(...problems);
  const output = lines.join("\n");
  const display = [
    `${shown}: ${summary?.status ?? "no summary"}, ${produced.length} file(s) produced`,
    ...problems,
    ...(o.stderrTail.trim()
      ? ["stderr: " + o.stderrTail.trim().split("\n").slice(-3).join(" | ")]
      : []),
  ].join("\n");
  const code = failureCode(o, summary, produced.length, maxFiles);
  return code ? fail(code, output, display) : ok(output, display);
}

function failureCode(
  o: SandboxOutcome,
  summary: ScriptSummary | null,
  produced: number,
  maxFiles: number,
): string | undefined {
  if (o.removed.length || o.changedOutside.length) return "sandbox_violation";
  if (o.ending !== "exited") return o.ending;
  if (produced > maxFiles) return "too_many_files";
  if (o.exitCode !== 0) return "script_failed";
  if (summary === null) return "no_summary";
  return undefined;
}

function ending(o: SandboxOutcome): string {
  switch (o.ending) {
    case "exited":
      return `exit ${o.exitCode}`;
    case "timeout":
      return "stopped at the time limit";
    case "stdout_cap":
      return "stopped: too much output on stdout";
    case "cancelled":
      return "cancelled";
    default:
      return o.ending;
  }
}

function refusals(
  o: SandboxOutcome,
  rel: (p: string) => string,
  produced: number,
  maxFiles: number,
): string[] {
  const out: string[] = [];
  if (o.removed.length) {
    out.push(
      `Refused: the script created files outside build/, which were removed: ${
        o.removed.map(rel).join(", ")
      }`,
    );
  }
  if (o.changedOutside.length) {
    out.push(
      `Refused: the script changed files outside build/ (minoc cannot undo this): ${
        o.changedOutside.map(rel).join(", ")
      }`,
    );
  }
  if (o.ending === "timeout") out.push("The script was stopped at the time limit.");
  if (o.ending === "stdout_cap") out.push("The script was stopped: it printed too much on stdout.");
  if (produced > maxFiles) {
    out.push(`The script produced ${produced} files, more than the limit of ${maxFiles}.`);
  }
  return out;
}

function capJson(summary: ScriptSummary): string {
  const text = JSON.stringify(summary);
  return text.length <= 4000 ? text : text.slice(0, 3990) + "…(cut)";
}
