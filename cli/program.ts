/**
 * The command tree. Heavy modules load only when their command runs: the
 * invoked subcommand is loaded in full, the others appear in `--help` as
 * light placeholders, so `minoc --version` and `--help` stay fast.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import type { CliIO } from "./io.ts";
import { withModelOptions } from "./options.ts";
import { VERSION } from "./version.ts";

/** A subcommand that is built only when it is invoked. */
interface LazyCommand {
  name: string;
  description: string;
  load(io: CliIO): Promise<Command>;
}

const LAZY: LazyCommand[] = [
  {
    name: "security",
    description: "check shell commands against the security rules",
    load: async (io) => {
      const [{ securityCommand }, { homeInputs, homePaths, resolveHome }] = await Promise.all([
        import("./commands/security.ts"),
        import("../core/config/paths.ts"),
      ]);
      const home = await resolveHome(homeInputs());
      return securityCommand(io, {
        cwd: Deno.cwd(),
        home: Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "/",
        configPath: `${homePaths(home.dir).config}/security.json`,
      });
    },
  },
  {
    name: "debug",
    description: "inspect how minoc reads model output (debug parse)",
    load: async (io) => {
      const [{ debugCommand }, { tools }] = await Promise.all([
        import("./commands/debug.ts"),
        import("../core/tools/mod.ts"),
      ]);
      return debugCommand(io, () => tools);
    },
  },
];

/** Builds the program for `args`; `main.ts` parses `args` with it. */
export async function buildProgram(io: CliIO, args: readonly string[]): Promise<Command> {
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
  const run = withModelOptions(
    new Command("run")
      .description("run one task with no questions asked, then exit")
      .argument("<task>", "what to do")
      .option("--json", "print one JSON object with the result at the end"),
  ).action(async (task, _opts, cmd) => {
    const { runCommand } = await import("./commands/run.ts");
    // Options given before "run" count too; those after it win.
    await runCommand(io, task, cmd.optsWithGlobals());
  });
  program.addCommand(configureTree(run as unknown as Command, io));
  const invoked = args.find((a) => !a.startsWith("-"));
  for (const lazy of LAZY) {
    const cmd = lazy.name === invoked
      ? await lazy.load(io)
      : new Command(lazy.name).description(lazy.description);
    program.addCommand(configureTree(cmd, io));
  }
  return program;
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
