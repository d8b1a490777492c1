/**
 * minoc's entry point and composition root: builds the command tree, runs
 * it, and is the only place that exits.
 *
 * @module
 */
import { CommanderError } from "@commander-js/extra-typings";
import { CliError, EXIT, processIO } from "./cli/io.ts";
import { buildProgram } from "./cli/program.ts";

/** Runs minoc with `args` and returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const io = processIO();
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
      io.err(`minoc: ${e.message}\n`);
      return e.exitCode;
    }
    const err = e as Error;
    io.err(`minoc: unexpected error: ${err?.stack ?? String(e)}\n`);
    return EXIT.failed;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
