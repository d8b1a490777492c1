/**
 * Options shared by the chat and `run`, with parsers that reject bad values
 * through commander (exit code 2).
 *
 * @module
 */
import { type Command, InvalidArgumentError, type OptionValues } from "@commander-js/extra-typings";

/** A number parser bounded to [min, max]; `integer` rejects fractions. */
export function numberIn(
  min: number,
  max: number,
  integer = false,
): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
      throw new InvalidArgumentError(`expected ${integer ? "a whole number" : "a number"}`);
    }
    if (n < min || n > max) throw new InvalidArgumentError(`expected ${min} to ${max}`);
    return n;
  };
}

/** A parser that accepts only one of `choices`. */
export function oneOf<T extends string>(choices: readonly T[]): (value: string) => T {
  return (value: string) => {
    if ((choices as readonly string[]).includes(value)) return value as T;
    throw new InvalidArgumentError(`expected ${choices.map((c) => `"${c}"`).join(" or ")}`);
  };
}

/** Adds the model and run options to a command. */
export function withModelOptions<A extends unknown[], O extends OptionValues>(
  cmd: Command<A, O>,
) {
  return cmd
    .option("--base-url <url>", "OpenAI-compatible API base URL (env OPENAI_BASE_URL)")
    .option("--model <name>", "model name (env MINOC_MODEL)")
    .option("--api-key <key>", "API key (env OPENAI_API_KEY)")
    .option("--temperature <n>", "sampling temperature, 0 to 2", numberIn(0, 2))
    .option("--top-p <n>", "nucleus sampling, 0 to 1", numberIn(0, 1))
    .option("--top-k <n>", "top-k sampling (sent as top_k)", numberIn(1, 1_000_000, true))
    .option("--max-tokens <n>", "maximum tokens per reply", numberIn(1, 10_000_000, true))
    .option("--max-turns <n>", "model replies per request (default 25)", numberIn(1, 10_000, true))
    .option("--cwd <dir>", "working directory (default: the current one)")
    .option("--yes", "approve whatever the gates would ask about; blocked calls stay blocked")
    .option("--plan", "plan mode: read-only tools, a plan as the answer")
    .option("--no-session", "record no session file")
    .option("--dry-run", "change nothing: file changes stay in memory, commands are not run")
    .option("--step", "step through each tool call: run, skip, edit or abort (needs a terminal)")
    .option("--debug", "write every request, reply, verdict and timing to .minoc/logs/debug.log")
    .option("--quiet", "no spinner, banner or token lines: only replies, tool lines and errors")
    .option("--no-progress", "no spinner during long waits (settings: progress)")
    .option("--continue", "continue the latest session of this directory")
    .option("--resume <id>", "continue a session of this directory (id or unique prefix)")
    .option(
      "--provider <name>",
      "openai (any OpenAI-compatible server) or bridge (copy/paste with a web chat)",
      oneOf(["openai", "bridge"] as const),
    )
    .option("--bridge-file <path>", "bridge: write each prompt to this file, not the clipboard")
    .option(
      "--bridge-limit <chars>",
      "bridge: split prompts longer than this (default 30000)",
      numberIn(1000, 100_000_000, true),
    )
    .option(
      "--edit-format <format>",
      "blocks: also accept <<<FILE>>>/<<<DIFF>>> edit blocks (always on with the bridge), or xml",
      oneOf(["blocks", "xml"] as const),
    );
}

/** Adds `--workflow` and its budget flags to a command (`run`). */
export function withWorkflowOptions<A extends unknown[], O extends OptionValues>(
  cmd: Command<A, O>,
) {
  return cmd
    .option("--workflow", "run the task as a goal: plan, act within budgets, reflect (one retry)")
    .option("--budget-calls <n>", "workflow: tool calls allowed (default 30)", numberIn(1, 100_000, true))
    .option("--budget-tokens <n>", "workflow: tokens allowed (default 200000)", numberIn(1, 1e9, true))
    .option("--budget-time <s>", "workflow: seconds allowed (default 600)", numberIn(1, 604_800, true));
}
