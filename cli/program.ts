/**
 * The command tree. Heavy modules load only when their command runs: the
 * invoked subcommand is loaded in full, the others appear in `--help` as
 * light placeholders, so `minoc --version` and `--help` stay fast.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import type { CliIO } from "./io.ts";
import { ownOptionsWin, withModelOptions, withWorkflowOptions } from "./options.ts";
import { VERSION } from "./version.ts";

/** A subcommand that is built only when it is invoked. */
interface LazyCommand {
  name: string;
  description: string;
  load(io: CliIO): Promise<Command>;
}

/** The `.minoc` home's folders, resolved when a command needs them. */
async function home() {
  const { homeInputs, homePaths, resolveHome } = await import("../core/config/paths.ts");
  const resolved = await resolveHome(homeInputs());
  return { dir: resolved.dir, warning: resolved.warning, ...homePaths(resolved.dir) };
}

const LAZY: LazyCommand[] = [
  {
    name: "mcp",
    description: "list, add, remove and test MCP servers",
    load: async (io) => {
      const [{ mcpCommand }, h] = await Promise.all([import("./commands/mcp.ts"), home()]);
      return mcpCommand(io, { cwd: Deno.cwd(), homeDir: h.dir, logsDir: h.logs });
    },
  },
  {
    name: "permissions",
    description: "list, add and revoke saved permission rules",
    load: async (io) => {
      const [{ permissionsCommand }, h] = await Promise.all([
        import("./commands/permissions.ts"),
        home(),
      ]);
      return permissionsCommand(io, { homeDir: h.dir, cwd: Deno.cwd(), homeWarning: h.warning });
    },
  },
  {
    name: "config",
    description: "write, show and check the configuration files",
    load: async (io) => {
      const [{ configCommand }, h] = await Promise.all([import("./commands/config.ts"), home()]);
      return configCommand(io, { homeDir: h.dir, cwd: Deno.cwd() });
    },
  },
  {
    name: "history",
    description: "list, show, analyse, export and prune recorded sessions",
    load: async (io) => {
      const [{ historyCommand }, h] = await Promise.all([import("./commands/history.ts"), home()]);
      return historyCommand(io, {
        sessionsDir: h.sessions,
        backupsDir: h.backups,
        cwd: Deno.cwd(),
      });
    },
  },
  {
    name: "undo",
    description: "revert the file changes of a session (default: the last tool call's)",
    load: async (io) => {
      const [{ undoCommand }, h] = await Promise.all([import("./commands/undo.ts"), home()]);
      return undoCommand(io, { sessionsDir: h.sessions, backupsDir: h.backups, cwd: Deno.cwd() });
    },
  },
  {
    name: "replay",
    description: "re-run a recorded session through today's parser and gates (dry-run)",
    load: async (io) => {
      const [{ replayCommand }, h] = await Promise.all([import("./commands/replay.ts"), home()]);
      return replayCommand(io, { sessionsDir: h.sessions, homeDir: h.dir });
    },
  },
  {
    name: "security",
    description: "check shell commands against the security rules",
    load: async (io) => {
      const [{ securityCommand }, h] = await Promise.all([
        import("./commands/security.ts"),
        home(),
      ]);
      return securityCommand(io, {
        cwd: Deno.cwd(),
        home: Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "/",
        configPath: `${h.config}/security.json`,
      });
    },
  },
  {
    name: "debug",
    description: "inspect how minoc reads model output (debug parse) and its timings (debug last)",
    load: async (io) => {
      const [{ debugCommand }, { tools }] = await Promise.all([
        import("./commands/debug.ts"),
        import("../core/tools/mod.ts"),
      ]);
      return debugCommand(io, () => tools, async () => (await home()).logs);
    },
  },
  {
    name: "skills",
    description: "list, show and validate skills, and their disclosure stats",
    load: async (io) => {
      const [{ skillsCommand }, h] = await Promise.all([import("./commands/skills.ts"), home()]);
      return skillsCommand(io, { cwd: Deno.cwd(), homeDir: h.dir, sessionsDir: h.sessions });
    },
  },
  {
    name: "new",
    description: "start a new project: a few questions, a plan of files, then the build",
    load: async (io) => (await import("./commands/new.ts")).newCommand(io) as unknown as Command,
  },
  {
    name: "setup",
    description: "connect minoc to a model: provider, API key, model, a live check, save",
    load: async (io) => {
      const [{ setupCommand }, h] = await Promise.all([import("./commands/setup.ts"), home()]);
      return setupCommand(io, { homeDir: h.dir }) as unknown as Command;
    },
  },
  {
    name: "doctor",
    description: "check the configuration, the server and how well the model follows minoc",
    load: async (io) =>
      (await import("./commands/doctor.ts")).doctorCommand(io) as unknown as Command,
  },
  {
    name: "acp",
    description: "run as an Agent Client Protocol agent on stdin/stdout (Zed, JetBrains, Neovim)",
    load: async (io) => (await import("./commands/acp.ts")).acpCommand(io) as unknown as Command,
  },
  {
    name: "completions",
    description: "print a shell completion script (bash, zsh or fish)",
    load: async (io) => {
      const { completionsCommand } = await import("./commands/completions.ts");
      return completionsCommand(io, () => buildProgram(io, [], { loadAll: true }));
    },
  },
];

/**
 * Builds the program for `args`; `main.ts` parses `args` with it. `loadAll`
 * builds every subcommand in full (for shell completions).
 */
export async function buildProgram(
  io: CliIO,
  args: readonly string[],
  o: { loadAll?: boolean } = {},
): Promise<Command> {
  const program = new Command()
    .name("minoc")
    .description("A coding agent for the terminal that works with any OpenAI-compatible model")
    .version(VERSION, "-V, --version")
    .enablePositionalOptions();
  configure(program, io);
  withModelOptions(program).action(async (opts) => {
    const { chat } = await import("./commands/chat.ts");
    await chat(io, opts);
  });
  const run = withModelOptions(withWorkflowOptions(
    new Command("run")
      .description("run one task with no questions asked, then exit")
      .argument("<task>", "what to do")
      .option("--json", "print one JSON object with the result at the end")
      .option(
        "--allow <tool:pattern>",
        'allow calls matching a rule, e.g. "execute_command:npm test *" (repeatable)',
        collect,
        [] as string[],
      )
      .option(
        "--deny <tool:pattern>",
        "deny calls matching a rule (repeatable)",
        collect,
        [] as string[],
      ),
  )).action(async (task, _opts, cmd) => {
    const { runCommand } = await import("./commands/run.ts");
    // Options given before "run" count too; those after it win.
    await runCommand(io, task, ownOptionsWin(cmd) as ReturnType<typeof cmd.optsWithGlobals>);
  });
  program.addCommand(configureTree(run as unknown as Command, io));
  const invoked = args.find((a) => !a.startsWith("-"));
  for (const lazy of LAZY) {
    const cmd = lazy.name === invoked || o.loadAll
      ? await lazy.load(io)
      : new Command(lazy.name).description(lazy.description);
    program.addCommand(configureTree(cmd, io));
  }
  return program;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function configureTree(cmd: Command, io: CliIO): Command {
  configure(cmd, io);
  for (const sub of cmd.commands) configureTree(sub as Command, io);
  return cmd;
}

function configure(cmd: Command, io: CliIO): void {
  cmd.exitOverride().configureOutput({
    writeOut: (s) => io.out(s),
    writeErr: (s) => io.err(s),
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  }).showHelpAfterError("(add --help for usage)");
}
