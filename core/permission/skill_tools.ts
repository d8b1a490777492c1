/**
 * A skill's `allowed-tools`, read as grants of minoc tools. An entry is
 * minoc's own tool name (`read_file`) or Claude Code's (`Read`, `Edit`,
 * `Bash`, …, mapped to minoc's tools), optionally with a pattern in
 * parentheses that the call must match like a permission rule: command
 * words for `execute_command` / `start_process` (`Bash(git:*)` is
 * `git *`: the command starts with the word `git`), path globs for file
 * tools (`Read(src/**)`). Entries may be separated by commas or spaces.
 * Unknown names are kept but match no tool.
 *
 * @example
 * ```ts
 * const grants = readGrants(["Read, Bash(git:*)"]);
 * describeGrants(grants); // "read_file, read_files, bridge_request, execute_command(git *), start_process(git *)"
 * grants.some((g) => grantCovers(g, input));
 * ```
 * @module
 */
import type { GateInput } from "../../interfaces/tool.ts";
import { callSubject, COMMAND_TOOLS, evaluateRules } from "./rules.ts";

/** One entry of `allowed-tools` as minoc reads it. */
export interface ToolGrant {
  /** The entry as written, e.g. `Bash(git:*)`. */
  source: string;
  /** The minoc tools it covers; empty when the name is unknown or malformed. */
  tools: readonly string[];
  /** A permission-rule pattern the call must also match (`git *`, `src/**`). */
  pattern?: string;
}

/** Claude Code's tool names (lower-cased) and the minoc tools each stands for. */
const CLAUDE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  read: ["read_file", "read_files", "bridge_request"],
  write: ["write_to_file", "create_directory"],
  edit: ["edit_file", "replace_in_file", "apply_edit_blocks"],
  multiedit: ["edit_file", "replace_in_file", "apply_edit_blocks"],
  glob: ["list_files"],
  ls: ["list_files"],
  grep: ["search_files"],
  bash: [
    "execute_command",
    "start_process",
    "read_process_output",
    "kill_process",
    "list_processes",
  ],
};

/** Tools that stay available while any skill is in use: to finish, ask, or switch skills. */
export const ALWAYS_ALLOWED: ReadonlySet<string> = new Set([
  "use_skill",
  "attempt_completion",
  "ask_followup_question",
  "blackboard_get",
  "blackboard_put",
]);

const ENTRY = /^([A-Za-z][A-Za-z0-9_-]*)(?:\((.*)\))?$/s;
const MINOC_NAME = /^[a-z][a-z0-9_]*$/;

/** Splits the list into entries at commas and spaces outside parentheses. */
export function splitEntries(list: readonly string[]): string[] {
  const out: string[] = [];
  for (const item of list) {
    // "Bash (git:*)" is one entry, never a bare "Bash" plus a stray pattern
    const text = item.replace(/\s+\(/g, "(");
    let depth = 0;
    let cur = "";
    for (const ch of text) {
      if (ch === "(") depth++;
      if (ch === ")") depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === "," || /\s/.test(ch))) {
        if (cur !== "") out.push(cur);
        cur = "";
        continue;
      }
      cur += ch;
    }
    if (cur !== "") out.push(cur);
  }
  return out;
}

/** Reads one entry: its tools and pattern. */
export function readGrant(entry: string): ToolGrant {
  const m = ENTRY.exec(entry.trim());
  if (!m) return { source: entry, tools: [] };
  const [, name, inner] = m;
  const claude = CLAUDE_TOOLS[name.toLowerCase()];
  const tools = claude ?? (MINOC_NAME.test(name) ? [name] : []);
  const raw = inner?.trim() ?? "";
  if (raw === "") return { source: entry, tools };
  const commands = tools.filter((t) => COMMAND_TOOLS.has(t));
  if (commands.length === 0) return { source: entry, tools, pattern: raw };
  // A command pattern covers only the tools that run commands; Claude's
  // "prefix:*" is the prefix as whole words, then anything.
  return { source: entry, tools: commands, pattern: raw.replace(/:\*$/, " *") };
}

/** Reads a skill's whole `allowed-tools` list. */
export function readGrants(list: readonly string[]): ToolGrant[] {
  return splitEntries(list).map(readGrant);
}

/** Whether `grant` lets this call through (the tool is covered and its pattern, if any, matches). */
export function grantCovers(
  grant: ToolGrant,
  input: Pick<GateInput, "call" | "tool" | "args" | "cwd">,
): boolean {
  const tool = input.tool.name;
  if (!grant.tools.includes(tool)) return false;
  if (grant.pattern === undefined) return true;
  const rule = {
    id: "allowed-tools",
    tool,
    pattern: grant.pattern,
    action: "allow" as const,
    scope: "*",
    createdAt: "",
  };
  const found = evaluateRules([rule], tool, callSubject(input, input.cwd), input.cwd);
  return found.allow !== undefined;
}

/** The grants as minoc tool names, e.g. `read_file, execute_command(git *)`; empty when none is known. */
export function describeGrants(grants: readonly ToolGrant[]): string {
  const names = grants.flatMap((g) =>
    g.tools.map((t) => g.pattern === undefined ? t : `${t}(${g.pattern})`)
  );
  return [...new Set(names)].join(", ");
}
