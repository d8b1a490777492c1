/**
 * What a permission rule is matched against: a call's command (split into
 * words), its paths (absolute and project-relative), or its main value.
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "node:path";
import type { GateInput } from "../../interfaces/tool.ts";
import { normalizeSlashes, splitCommand } from "./rules_match.ts";

/** Tools whose subject is a command line. */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set(["execute_command", "start_process"]);

/** Parameters that name a file or directory. */
const PATH_PARAMS = ["path", "directory"];

/** One path of a call, as written and as resolved. */
export interface SubjectPath {
  /** Absolute, `..` resolved, symlinks not followed. */
  abs: string;
  /** Relative to the project with `/` separators, or null when outside it. */
  rel: string | null;
  /** After symlinks (filled in by the paths guard); absent when unknown. */
  real?: string;
  realRel?: string | null;
}

/** What rules are matched against for one call. */
export type CallSubject =
  | { kind: "command"; command: string; segments: string[][] | null; refusal?: string }
  | { kind: "paths"; paths: SubjectPath[] }
  | { kind: "value"; value: string };

/** The subject of a call: its command, its paths, or its first parameter. */
export function callSubject(
  input: Pick<GateInput, "call" | "tool" | "args" | "cwd">,
  projectDir: string,
): CallSubject {
  const args = (typeof input.args === "object" && input.args !== null ? input.args : {}) as Record<
    string,
    unknown
  >;
  const param = (name: string): string | string[] | undefined => {
    const v = args[name] ?? input.call.params[name];
    if (typeof v === "string" || Array.isArray(v)) return v as string | string[];
    return undefined;
  };
  if (input.tool.external) return { kind: "value", value: "" };
  if (COMMAND_TOOLS.has(input.tool.name)) {
    const command = String(param("command") ?? "");
    const split = splitCommand(command);
    return split.ok
      ? { kind: "command", command, segments: split.segments }
      : { kind: "command", command, segments: null, refusal: split.reason };
  }
  const pathParam = input.tool.params.find((p) => PATH_PARAMS.includes(p.name));
  if (pathParam) {
    const raw = param(pathParam.name) ?? ".";
    const list = (Array.isArray(raw) ? raw : [raw]).map((p) => p.trim() || ".");
    return { kind: "paths", paths: list.map((p) => subjectPath(input.cwd, p, projectDir)) };
  }
  const first = input.tool.params.find((p) => p.required);
  const v = first ? param(first.name) : undefined;
  return { kind: "value", value: Array.isArray(v) ? v.join(" ") : v ?? "" };
}

/** A path resolved against `cwd`, with its place in the project. */
export function subjectPath(cwd: string, path: string, projectDir: string): SubjectPath {
  const abs = resolve(cwd, path);
  return { abs, rel: projectRelative(projectDir, abs) };
}

/** `abs` relative to `projectDir` with `/` separators (`.` for itself), or null when outside. */
export function projectRelative(projectDir: string, abs: string): string | null {
  const rel = relative(projectDir, abs);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith("../") || rel.startsWith("..\\") || isAbsolute(rel)) {
    return null;
  }
  return normalizeSlashes(rel);
}
