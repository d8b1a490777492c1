/**
 * `minoc permissions list | revoke <id> | add <tool> <pattern>`: the saved
 * allow/deny rules in `.minoc/config/permissions.json`. `/permissions` in
 * the chat prints the same list through {@link permissionsText}.
 *
 * Exit codes: 0 on success; 2 for an unknown id, a bad pattern, or a
 * permissions.json that cannot be read (it is never overwritten).
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { stdoutPalette } from "../ui/colors.ts";
import {
  describeRule,
  inScope,
  patternProblem,
  type PermissionRule,
  scopeText,
} from "../../core/permission/rules.ts";
import {
  addRules,
  loadRules,
  permissionsPath,
  revokeRule,
} from "../../core/permission/rules_store.ts";
import { realDir } from "../../core/permission/paths_guard.ts";
import { CliError, type CliIO, EXIT, warn } from "../io.ts";

/** Where the command runs. */
export interface PermissionsEnv {
  /** The `.minoc` home. */
  homeDir: string;
  /** The project directory: the scope (its real path) of rules added without `--everywhere`. */
  cwd: string;
  /** Known tool names; when given, `add` rejects others. */
  toolNames?: readonly string[];
  /** Why the `.minoc` home is not the usual one (paths.ts fallback); `add` repeats it. */
  homeWarning?: string;
}

/**
 * The `permissions` command with `list`, `revoke` and `add`.
 *
 * @example
 * ```ts
 * const io = memoryIO();
 * await permissionsCommand(io, { homeDir, cwd }).parseAsync(["add", "execute_command", "npm test *"], { from: "user" });
 * ```
 */
export function permissionsCommand(io: CliIO, env: PermissionsEnv): Command {
  const file = permissionsPath(env.homeDir);
  const cmd = new Command("permissions").description("List, add and revoke saved permission rules");
  cmd
    .command("list")
    .description("List the saved rules with their ids")
    .option("--json", "print the rules as a JSON array")
    .action(async (opts) => {
      const rules = await rulesOrThrow(file);
      if (opts.json) return io.out(JSON.stringify(rules, null, 2) + "\n");
      io.out(formatRules(rules, await realDir(env.cwd), file));
    });
  cmd
    .command("revoke")
    .description("Remove the rule with this id")
    .argument("<id>", "the rule id, as shown by list")
    .action(async (id) => {
      const r = await revokeRule(file, id);
      if (!r.ok) throw new CliError(`${r.error}; fix or remove the file`, EXIT.usage);
      if (r.removed === null) {
        throw new CliError(`No rule with id "${id}": see minoc permissions list`, EXIT.usage);
      }
      io.out(`Revoked ${r.removed.id}: ${describeRule(r.removed, await realDir(env.cwd))}\n`);
    });
  cmd
    .command("add")
    .description("Add an allow rule (or a deny rule with --deny) for this project")
    .argument("<tool>", "the tool name, e.g. execute_command or write_to_file")
    .argument("<pattern>", 'a command pattern ("npm test *") or a path glob ("src/**")')
    .option("--deny", "deny matching calls instead of allowing them")
    .option("--everywhere", "apply in every project, not only this one")
    .action(async (tool, pattern, opts) => {
      if (env.toolNames && !env.toolNames.includes(tool)) {
        throw new CliError(
          `Unknown tool "${tool}": use one of ${env.toolNames.join(", ")}`,
          EXIT.usage,
        );
      }
      const problem = patternProblem(tool, pattern);
      if (problem) throw new CliError(`Cannot add the rule: ${problem}`, EXIT.usage);
      const action = opts.deny ? "deny" : "allow";
      const here = await realDir(env.cwd);
      const scope = opts.everywhere ? "*" : here;
      const r = await addRules(file, [{ tool, pattern: pattern.trim(), action, scope }]);
      if (!r.ok) throw new CliError(`${r.error}; fix or remove the file`, EXIT.usage);
      const rule = r.rules[0];
      if (env.homeWarning) warn(io, env.homeWarning);
      io.out(`Added ${rule.id}: ${describeRule(rule, here)}\nSaved in "${file}"\n`);
    });
  return cmd;
}

async function rulesOrThrow(file: string): Promise<PermissionRule[]> {
  const r = await loadRules(file);
  if (!r.ok) throw new CliError(`${r.error}; fix or remove the file`, EXIT.usage);
  return r.rules;
}

/**
 * The rule list as text, those in force in `cwd` first; for `list` and the
 * chat's `/permissions`.
 */
export function formatRules(rules: readonly PermissionRule[], cwd: string, file: string): string {
  if (rules.length === 0) {
    return `No saved permission rules (${file}).\n` +
      `Add one with: minoc permissions add execute_command "npm test *"\n`;
  }
  const here = rules.filter((r) => inScope(r, cwd));
  const elsewhere = rules.filter((r) => !inScope(r, cwd));
  const idWidth = Math.max(...rules.map((r) => r.id.length));
  const pc = stdoutPalette();
  const line = (r: PermissionRule) => {
    const action = r.action === "deny" ? pc.red("deny ") : pc.green("allow");
    return `  ${r.id.padEnd(idWidth)}  ${action}  ${r.tool}: ${r.pattern}  ${
      pc.dim(`(${scopeText(r.scope, cwd)})`)
    }\n`;
  };
  let out = `Rules in force here (${cwd}):\n`;
  out += here.length ? here.map(line).join("") : "  none\n";
  if (elsewhere.length) out += `Rules of other projects:\n${elsewhere.map(line).join("")}`;
  return out + pc.dim(`Saved in ${file}; remove one with: minoc permissions revoke <id>\n`);
}

/**
 * The text `/permissions` prints in the chat: the rule list, or the problem
 * with permissions.json.
 */
export async function permissionsText(
  env: Pick<PermissionsEnv, "homeDir" | "cwd">,
): Promise<string> {
  const file = permissionsPath(env.homeDir);
  const r = await loadRules(file);
  if (!r.ok) return `${r.error}; fix or remove the file\n`;
  return formatRules(r.rules, await realDir(env.cwd), file);
}
