/**
 * `minoc setup`: the wizard that connects minoc to a model (see
 * cli/setup_wizard.ts). It needs a terminal; exit 0 when saved, 130 when
 * cancelled, 2 without a terminal.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { CliError, type CliIO, EXIT } from "../io.ts";
import { palette } from "../ui/colors.ts";

/** The `setup` command, saving into the `.minoc` home `homeDir`. */
export function setupCommand(io: CliIO, o: { homeDir: string }) {
  return new Command("setup")
    .description("connect minoc to a model: provider, API key, model, a live check, save")
    .action(async () => {
      if (!Deno.stdin.isTerminal()) {
        throw new CliError(
          "minoc setup needs a terminal to ask in: standard input is not one " +
            "(write settings.json yourself, see minoc config --help)",
          EXIT.usage,
        );
      }
      const { setupWizard } = await import("../setup_wizard.ts");
      const saved = await setupWizard({
        homeDir: o.homeDir,
        write: io.out,
        dim: palette(Deno.stdout.isTerminal()).dim,
      });
      io.exitCode = saved ? EXIT.ok : EXIT.interrupted;
    });
}
