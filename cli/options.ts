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
    .option("--no-session", "record no session file");
}
