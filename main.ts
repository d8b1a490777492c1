/**
 * minoc's entry point and composition root: builds the command tree, runs
 * it, and is the only place that exits.
 *
 * @module
 */
import { CliError, EXIT, processIO } from "./cli/io.ts";
import { VERSION } from "./cli/version.ts";
import { visible } from "./core/protocol/visible.ts";

/** Runs minoc with `args` and returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const io = processIO();
  // `minoc --version` answers before commander and the command tree load.
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    io.out(`${VERSION}\n`);
    return EXIT.ok;
  }
  // The skill-script sandbox helper (see core/sandbox/confine_main.ts): becomes the script.
  if (args[0] === "__confine") {
    const { confineMain } = await import("./core/sandbox/confine_main.ts");
    return confineMain(args.slice(1), io.out, io.err);
  }
  const [{ CommanderError }, { buildProgram }] = await Promise.all([
    import("@commander-js/extra-typings"),
    import("./cli/program.ts"),
  ]);
  const program = await buildProgram(io, args);
  try {
    await program.parseAsync(args, { from: "user" });
    return io.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      const fine = e.code === "commander.helpDisplayed" || e.code === "commander.version" ||
        e.code === "commander.help";
      return fine ? EXIT.ok : EXIT.usage;
    }
    if (e instanceof CliError) {
      // The message may quote a server's answer or a file's contents: shown, never obeyed.
      io.err(`minoc: ${visible(e.message)}\n`);
      return e.exitCode;
    }
    const err = e as Error;
    io.err(`minoc: unexpected error: ${visible(err?.stack ?? String(e))}\n`);
    return EXIT.failed;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
