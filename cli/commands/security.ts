/**
 * `minoc security check "<command>"` and `minoc security rules`: the
 * security gate from the command line, for humans (coloured by risk), for
 * scripts (`--json`) and for many commands at once (`--batch`, JSON lines).
 *
 * Exit codes: 0 when the check ran, whatever the verdict (read the verdict
 * from the output); 2 for bad input (no command, a bad `--batch` line, an
 * invalid security.json).
 *
 * @module
 */
import { Command, Option } from "@commander-js/extra-typings";
import {
  checkCommand,
  defaultShell,
  listRules,
  loadSecurityConfig,
  type SecurityConfig,
  type SecurityVerdict,
  type ShellKind,
} from "../../core/permission/security.ts";
import { CliError, type CliIO, EXIT } from "../io.ts";
import { stdoutPalette } from "../ui/colors.ts";

/** Where the command runs and where its configuration lives. */
export interface SecurityEnv {
  cwd: string;
  home: string;
  /** Path of `.minoc/config/security.json` (a missing file means defaults). */
  configPath: string;
  /** Default dialect; else `MINOC_SHELL` or the platform's. */
  shell?: ShellKind;
}

const SHELL_CHOICES = ["bash", "powershell", "cmd"] as const;

/**
 * The `security` command with `check` and `rules` sub-commands.
 *
 * @example
 * ```ts
 * const io = memoryIO();
 * await securityCommand(io, { cwd, home, configPath }).parseAsync(["check", "rm -rf /", "--json"], { from: "user" });
 * JSON.parse(io.stdout).verdict; // "block"
 * ```
 */
export function securityCommand(io: CliIO, env: SecurityEnv): Command {
  const security = new Command("security").description(
    "Check shell commands against the security rules",
  );
  security
    .command("check")
    .description(
      "Print the security verdict for a command (exit code 0 whatever the verdict, 2 for bad input)",
    )
    .argument("[command]", "the command line to check, quoted")
    .addOption(new Option("--shell <shell>", "dialect of the command").choices(SHELL_CHOICES))
    .option("--json", "print the verdict as one JSON object")
    .option(
      "--batch",
      'read JSON lines {"id","command","shell"} from stdin and print one result line each',
    )
    .action(async (command, opts) => {
      const config = await configOrThrow(env.configPath);
      const shell = opts.shell ?? env.shell ?? defaultShell();
      if (opts.batch) return await batch(io, env, config, shell);
      if (command === undefined || command.trim() === "") {
        throw new CliError(
          'Give a command to check, e.g. minoc security check "rm -rf /", or use --batch',
          EXIT.usage,
        );
      }
      const v = await checkCommand(command, { shell, cwd: env.cwd, home: env.home, config });
      io.out(opts.json ? JSON.stringify(v) + "\n" : human(v));
    });
  security
    .command("rules")
    .description("List the active rules with their ids (custom rules are marked)")
    .option("--json", "print the rules as a JSON array")
    .action(async (opts) => {
      const rules = listRules(await configOrThrow(env.configPath));
      if (opts.json) return io.out(JSON.stringify(rules, null, 2) + "\n");
      const width = Math.max(...rules.map((r) => r.id.length));
      for (const r of rules) {
        const mark = r.custom ? stdoutPalette().cyan(" (custom)") : "";
        io.out(
          `${r.id.padEnd(width)}  ${paint(r.risk, r.verdict.padEnd(5))}  ${
            r.risk.padEnd(8)
          }  ${r.description}${mark}\n`,
        );
      }
    });
  return security;
}

async function configOrThrow(path: string): Promise<SecurityConfig> {
  const r = await loadSecurityConfig(path);
  if (!r.ok) throw new CliError(`${r.error}; fix or remove the file`, EXIT.usage);
  return r.config;
}

async function batch(
  io: CliIO,
  env: SecurityEnv,
  config: SecurityConfig,
  shell: ShellKind,
): Promise<void> {
  const lines = (await io.readStdin()).split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    const item = parseLine(lines[i], i + 1);
    if ("error" in item) {
      io.out(JSON.stringify(item) + "\n");
      io.exitCode = EXIT.usage;
      continue;
    }
    const v = await checkCommand(item.command, {
      shell: item.shell ?? shell,
      cwd: env.cwd,
      home: env.home,
      config,
    });
    io.out(JSON.stringify({ id: item.id, ...v }) + "\n");
  }
}

type BatchItem = { id: unknown; command: string; shell?: ShellKind };

function parseLine(line: string, n: number): BatchItem | { id: unknown; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { id: null, error: `Line ${n}: not valid JSON` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { id: null, error: `Line ${n}: must be an object like {"id":1,"command":"ls"}` };
  }
  const o = value as Record<string, unknown>;
  const id = o.id ?? null;
  if (typeof o.command !== "string") {
    return { id, error: `Line ${n}: field "command" must be a string` };
  }
  if (o.shell !== undefined && !(SHELL_CHOICES as readonly unknown[]).includes(o.shell)) {
    return {
      id,
      error: `Line ${n}: field "shell" must be one of bash, powershell, cmd, got "${
        String(o.shell)
      }"`,
    };
  }
  return { id, command: o.command, shell: o.shell as ShellKind | undefined };
}

/** The verdict for humans, coloured by risk. */
function human(v: SecurityVerdict): string {
  const pc = stdoutPalette();
  const head = `${paint(v.risk, v.verdict.toUpperCase())}  ${paint(v.risk, v.risk)}${
    v.rule ? `  ${pc.bold(v.rule)}` : ""
  }`;
  if (v.verdict === "allow") return `${head}\n  ${pc.dim(v.reason)}\n`;
  return `${head}\n  ${v.reason}\n  ${pc.dim("in:")} ${v.segment}\n`;
}

function paint(risk: string, text: string): string {
  const pc = stdoutPalette();
  switch (risk) {
    case "critical":
      return pc.bold(pc.red(text));
    case "high":
      return pc.bold(pc.yellow(text));
    case "medium":
      return pc.yellow(text);
    default:
      return pc.green(text);
  }
}
