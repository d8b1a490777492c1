/**
 * `minoc acp`: minoc as an Agent Client Protocol agent on stdin/stdout, for
 * editors (Zed, JetBrains IDEs, Neovim plugins). Standard output carries the
 * protocol and nothing else: warnings go to standard error (editors keep it
 * in their logs), logs to `.minoc/logs/`. The process ends when the editor
 * closes standard input.
 *
 * @module
 */
import { Command } from "commander";
import type { CliIO } from "../io.ts";
import { numberIn } from "../options.ts";
import type { AcpFlags } from "../acp/agent.ts";
import { visible } from "../../core/protocol/visible.ts";

/** The `acp` command. */
export function acpCommand(io: CliIO): Command {
  return new Command("acp")
    .description("run as an Agent Client Protocol agent on stdin/stdout (for editors)")
    .option("--base-url <url>", "OpenAI-compatible API base URL (env OPENAI_BASE_URL)")
    .option("--model <name>", "model name (env MINOC_MODEL)")
    .option("--api-key <key>", "API key (env OPENAI_API_KEY)")
    .option("--temperature <n>", "sampling temperature, 0 to 2", numberIn(0, 2))
    .option("--max-tokens <n>", "maximum tokens per reply", numberIn(1, 10_000_000, true))
    .option("--max-turns <n>", "model replies per request (default 25)", numberIn(1, 10_000, true))
    .option("--yes", "approve whatever the gates would ask about; blocked calls stay blocked")
    .option("--plan", "start sessions in plan mode")
    .option("--no-session", "record no session file (session/load is then refused)")
    .option("--step", "ask the editor before each call runs: run, run the rest, skip or abort")
    .option("--dry-run", "change nothing: file changes stay in memory, commands are not run")
    .option("--debug", "write every request, reply, verdict and timing to .minoc/logs/debug.log")
    .action(async (opts) => {
      await serve(io, { ...opts, quiet: true, progress: false } as AcpFlags);
    });
}

/** Serves one editor until it closes standard input. */
async function serve(io: CliIO, flags: AcpFlags): Promise<void> {
  // Nothing but the protocol may reach stdout: stray console output goes to stderr.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const [{ ndJsonStream }, { acpAgent, SessionTable }] = await Promise.all([
    import("@agentclientprotocol/sdk"),
    import("../acp/agent.ts"),
  ]);
  const warn = (m: string) => io.err(`minoc acp: ${visible(m)}\n`);
  const table = new SessionTable();
  const stream = ndJsonStream(Deno.stdout.writable, Deno.stdin.readable);
  const conn = acpAgent(flags, table, warn).connect(stream);
  await conn.closed.catch((e) => warn(`connection closed: ${(e as Error)?.message ?? e}`));
  await table.closeAll();
}
