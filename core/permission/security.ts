/**
 * The security gate: reads a shell command with a real parser (tree-sitter
 * for bash; tokens for PowerShell and cmd), follows every piece of code it
 * would run, and judges each command segment against block and warn rules.
 * The worst verdict wins. Blocked commands never run, whatever the mode or
 * the permission rules.
 *
 * @example
 * ```ts
 * const v = await checkCommand("ls && sudo rm -rf /", { shell: "bash", cwd: "/p", home: "/home/me" });
 * v.verdict; // "block"
 * v.rule; // "privilege-escalation"
 * ```
 * @module
 */
import type { Gate, GateInput, Verdict } from "../../interfaces/tool.ts";
import { compilePattern, customRule } from "./security/custom.ts";
import { DEFAULT_SECURITY_CONFIG, type SecurityConfig } from "./security/config.ts";
import { type ActiveRules, judge } from "./security/judge.ts";
import { readCommand } from "./security/read.ts";
import { indirectGate } from "./indirect_gate.ts";
import {
  changesFiles,
  FILE_TOOL_QUIET_RULES,
  fileOpSegments,
  warmSegments,
} from "./security/file_ops.ts";
import { BUILTIN_RULES, STRUCTURAL } from "./security/rules/mod.ts";
import type { Rule, SecurityVerdict, ShellKind } from "./security/types.ts";
import { SHELLS } from "./security/types.ts";
import { readTextFile } from "../tools/bounded_read.ts";
import { COMMAND_TOOLS } from "./rules_subject.ts";
import { securityJudges } from "./security_scope.ts";

/** Verdict, risk and shell types of the gate (see `security/types.ts`). */
export type { Risk, SecurityVerdict, ShellKind } from "./security/types.ts";
/** The validated shape of security.json (see `security/config.ts`). */
export type { SecurityConfig } from "./security/config.ts";
export {
  DEFAULT_SECURITY_CONFIG,
  loadSecurityConfig,
  parseSecurityConfig,
} from "./security/config.ts";

/** Options of {@link checkCommand}. */
export interface CheckOptions {
  shell: ShellKind;
  /** Absolute working directory the command runs in. */
  cwd: string;
  /** Absolute home directory of the user. */
  home: string;
  config?: SecurityConfig;
}

const compiled = new WeakMap<SecurityConfig, ActiveRules>();

function activeRules(config: SecurityConfig): ActiveRules {
  let active = compiled.get(config);
  if (active) return active;
  const disabled = new Set(config.disabled);
  const custom = [
    ...config.block.map((e) => customRule(e, "block")),
    ...config.warn.map((e) => customRule(e, "warn")),
  ];
  const structuralIds = new Set(STRUCTURAL.map((r) => r.id));
  active = {
    segmentRules: [...BUILTIN_RULES.filter((r) => !structuralIds.has(r.id)), ...custom]
      .filter((r) => !disabled.has(r.id)),
    structural: new Map(STRUCTURAL.filter((r) => !disabled.has(r.id)).map((r) => [r.id, r])),
    exceptions: config.exceptions.map(compilePattern),
  };
  compiled.set(config, active);
  return active;
}

/**
 * Judges one command line. Never throws for odd input: text that does not
 * parse is at least a warning.
 */
export async function checkCommand(command: string, opts: CheckOptions): Promise<SecurityVerdict> {
  const ctx = { cwd: opts.cwd, home: opts.home };
  if (command.trim() === "") {
    return { verdict: "allow", rule: "", risk: "low", reason: "Empty command", segment: "" };
  }
  const { segments, findings } = await readCommand(command, opts.shell, ctx);
  return judge(segments, findings, activeRules(opts.config ?? DEFAULT_SECURITY_CONFIG), ctx);
}

/** One row of {@link listRules}. */
export interface RuleInfo {
  id: string;
  verdict: "block" | "warn";
  risk: string;
  description: string;
  /** True for rules from security.json. */
  custom: boolean;
}

/** The active rules (built-in minus disabled, plus custom), block rules first. */
export function listRules(config: SecurityConfig = DEFAULT_SECURITY_CONFIG): RuleInfo[] {
  const disabled = new Set(config.disabled);
  const custom: Rule[] = [
    ...config.block.map((e) => customRule(e, "block")),
    ...config.warn.map((e) => customRule(e, "warn")),
  ];
  const all = [...BUILTIN_RULES, ...custom].filter((r) => !disabled.has(r.id));
  const order = (r: Rule) => (r.verdict === "block" ? 0 : 1);
  return all
    .map((r, i) => ({ r, i }))
    .sort((a, b) => order(a.r) - order(b.r) || a.i - b.i)
    .map(({ r }) => ({
      id: r.id,
      verdict: r.verdict,
      risk: r.risk,
      description: r.description,
      custom: r.custom === true,
    }));
}

/**
 * The shell commands are written for: `MINOC_SHELL` when it names one,
 * else PowerShell on Windows and bash elsewhere. Without `env`, the process
 * environment is read (if permitted).
 */
export function defaultShell(env?: { MINOC_SHELL?: string }): ShellKind {
  let value = env?.MINOC_SHELL;
  if (env === undefined) {
    try {
      value = Deno.env.get("MINOC_SHELL");
    } catch {
      value = undefined;
    }
  }
  const v = value?.trim().toLowerCase();
  if (v && (SHELLS as readonly string[]).includes(v)) return v as ShellKind;
  return Deno.build.os === "windows" ? "powershell" : "bash";
}

/** Warnings `--yes` does not approve: only a person can let secrets reach the model. */
const FIRM_RULES = new Set(["secret-files", "git-code"]);

/**
 * The `security` gate of the pipeline. Calls of `execute_command` and
 * `start_process`, and of any tool whose preview is a command line (e.g.
 * `run_skill_script`), are judged: block → deny (critical), warn → ask,
 * allow → pass. File tools that write, delete or change modes are judged as
 * the command that would do the same (`security/file_ops.ts`). Then the
 * indirect checks (`indirect_gate.ts`) may still ask: `set_env` of a
 * code-running variable, a command running a file written in this session.
 * Other calls pass.
 */
export function securityGate(
  opts: {
    cwd: string;
    home: string;
    shell: ShellKind;
    config?: SecurityConfig;
    /** Reads a file as the tools see it, for the indirect checks (default: the disk). */
    readFile?: (path: string) => Promise<string>;
  },
): Gate {
  const indirect = indirectGate({ read: opts.readFile ?? ((p) => readTextFile(p)) });
  const own = ownChecks(opts);
  return {
    name: "security",
    async check(input: GateInput): Promise<Verdict> {
      if (!securityJudges(input)) return { gate: "security", action: "pass" };
      const v = await own(input);
      if (v.action === "deny") return v;
      return mergeAsk(v, await indirect.check(input));
    },
    async warm(step: () => Promise<void>): Promise<void> {
      // Every rule runs once, a few at a time (V8 compiles each function and pattern on first use).
      const active = activeRules(opts.config ?? DEFAULT_SECURITY_CONFIG);
      const ctx = { cwd: opts.cwd, home: opts.home };
      const segments = warmSegments(opts.cwd);
      const rules = active.segmentRules;
      for (let i = 0; i < rules.length; i += 4) {
        await step();
        judge(segments, [], { ...active, segmentRules: rules.slice(i, i + 4) }, ctx);
      }
    },
  };
}

/** Both verdicts' asks in one `security` verdict (see `indirect_gate.ts`). */
function mergeAsk(v: Verdict, extra: Verdict): Verdict {
  if (extra.action !== "ask") return v;
  if (v.action !== "ask") return { ...extra, gate: "security" };
  return {
    ...v,
    reason: `${v.reason}; ${extra.reason}`,
    firm: v.firm || extra.firm || undefined,
    risk: extra.risk === "high" && v.risk !== "critical" ? "high" : v.risk,
  };
}

function ownChecks(
  opts: { cwd: string; home: string; shell: ShellKind; config?: SecurityConfig },
): (input: GateInput) => Promise<Verdict> {
  return async (input: GateInput): Promise<Verdict> => {
    const previewed = input.preview.kind === "exec" ? input.preview.command : null;
    if (!COMMAND_TOOLS.has(input.call.tool) && previewed === null) {
      return changesFiles(input)
        ? await checkFileTool(input, opts)
        : { gate: "security", action: "pass" };
    }
    const command = COMMAND_TOOLS.has(input.call.tool) ? commandOf(input) : previewed;
    if (command === null) return { gate: "security", action: "pass", risk: "low" };
    const cwd = cwdOf(input, opts.cwd);
    try {
      const v = await checkCommand(command, {
        shell: opts.shell,
        cwd,
        home: opts.home,
        config: opts.config,
      });
      return toVerdict(v);
    } catch (e) {
      return {
        gate: "security",
        action: "ask",
        rule: "check-failed",
        risk: "high",
        reason: `Security check failed: ${(e as Error).message}`,
      };
    }
  };
}

/** A file tool's call, judged as the commands that would do the same (see `security/file_ops.ts`). */
async function checkFileTool(
  input: GateInput,
  opts: { home: string; config?: SecurityConfig },
): Promise<Verdict> {
  let worst: Verdict = { gate: "security", action: "pass", risk: "low" };
  const active = activeRules(opts.config ?? DEFAULT_SECURITY_CONFIG);
  for (const seg of await fileOpSegments(input)) {
    const v = judge([seg], [], active, { cwd: input.cwd, home: opts.home });
    if (v.verdict === "allow" || (v.verdict === "warn" && FILE_TOOL_QUIET_RULES.has(v.rule))) {
      continue;
    }
    const verdict = toVerdict({ ...v, segment: "" });
    verdict.reason = `${input.call.tool} is judged as "${seg.text}": ${verdict.reason}`;
    if (verdict.action === "deny") return verdict;
    if (worst.action === "pass") worst = verdict;
  }
  return worst;
}

function toVerdict(v: SecurityVerdict): Verdict {
  if (v.verdict === "allow") return { gate: "security", action: "pass", risk: "low" };
  const where = v.segment
    ? ` (in "${v.segment.length > 200 ? v.segment.slice(0, 197) + "…" : v.segment}")`
    : "";
  const action = v.verdict === "block" ? "deny" : "ask";
  return {
    gate: "security",
    action,
    ...(FIRM_RULES.has(v.rule) ? { firm: true } : {}),
    rule: v.rule,
    risk: v.verdict === "block" ? "critical" : v.risk,
    reason: v.reason + where,
  };
}

function commandOf(input: GateInput): string | null {
  const args = input.args as { command?: unknown } | null;
  if (args && typeof args === "object" && typeof args.command === "string") return args.command;
  const raw = input.call.params.command;
  if (typeof raw === "string") return raw;
  if (Array.isArray(raw)) return raw.join("\n");
  return null;
}

function cwdOf(input: GateInput, fallback: string): string {
  const args = input.args as { cwd?: unknown } | null;
  const base = input.cwd || fallback;
  const sub = args && typeof args === "object" && typeof args.cwd === "string" ? args.cwd : "";
  if (!sub) return base;
  if (/^([a-z]:)?[\\/]/i.test(sub)) return sub;
  return base.replace(/[\\/]+$/, "") + "/" + sub;
}
