/**
 * Options shared by the chat and `run`, with parsers that reject bad values
 * through commander (exit code 2).
 *
 * @module
 */
import { InvalidArgumentError } from "@commander-js/extra-typings";
import type { Command as UntypedCommand } from "commander";

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

/**
 * One option: flags, description, and an optional value parser. Options are
 * added from tables, untyped: chaining twenty-odd typed `.option()` calls
 * through a generic makes type checking explode, so commands cast their
 * parsed options to a hand-written interface (see commands/common.ts).
 */
type OptionSpec = readonly [flags: string, description: string, parse?: (v: string) => unknown];

function addOptions<C>(cmd: C, specs: readonly OptionSpec[]): C {
  const c = cmd as unknown as UntypedCommand;
  for (const [flags, description, parse] of specs) {
    if (parse) c.option(flags, description, parse);
    else c.option(flags, description);
  }
  return cmd;
}

const MODEL_OPTIONS: readonly OptionSpec[] = [
  ["--base-url <url>", "OpenAI-compatible API base URL (env OPENAI_BASE_URL)"],
  ["--model <name>", "model name (env MINOC_MODEL)"],
  ["--api-key <key>", "API key (env OPENAI_API_KEY)"],
  ["--temperature <n>", "sampling temperature, 0 to 2", numberIn(0, 2)],
  ["--top-p <n>", "nucleus sampling, 0 to 1", numberIn(0, 1)],
  ["--top-k <n>", "top-k sampling (sent as top_k)", numberIn(1, 1_000_000, true)],
  ["--max-tokens <n>", "maximum tokens per reply", numberIn(1, 10_000_000, true)],
  ["--max-turns <n>", "model replies per request (default 25)", numberIn(1, 10_000, true)],
  ["--cwd <dir>", "working directory (default: the current one)"],
  ["--yes", "approve whatever the gates would ask about; blocked calls stay blocked"],
  ["--plan", "plan mode: read-only tools, a plan as the answer"],
  [
    "--sandbox <mode>",
    "where commands may write: workspace-write (default), read-only or off",
    oneOf(["workspace-write", "read-only", "off"] as const),
  ],
  ["--no-session", "record no session file"],
  ["--dry-run", "change nothing: file changes stay in memory, commands are not run"],
  ["--step", "step through each tool call: run, skip, edit or abort (needs a terminal)"],
  ["--debug", "write every request, reply, verdict and timing to .minoc/logs/debug.log"],
  ["--quiet", "no spinner, banner or token lines: only replies, tool lines and errors"],
  ["--show-reasoning", "show the model's reasoning in full (dimmed); default: one folded line"],
  ["--no-progress", "no spinner during long waits (settings: progress)"],
  ["--continue", "continue the latest session of this directory"],
  ["--resume <id>", "continue a session of this directory (id or unique prefix)"],
  [
    "--provider <name>",
    "openai (any OpenAI-compatible server) or bridge (copy/paste with a web chat)",
    oneOf(["openai", "bridge"] as const),
  ],
  ["--bridge-file <path>", "bridge: write each prompt to this file, not the clipboard"],
  [
    "--bridge-limit <chars>",
    "bridge: split prompts longer than this (default 30000)",
    numberIn(1000, 100_000_000, true),
  ],
  [
    "--edit-format <format>",
    "blocks: also accept <<<FILE>>>/<<<DIFF>>> edit blocks (always on with the bridge), or xml",
    oneOf(["blocks", "xml"] as const),
  ],
];

const WORKFLOW_OPTIONS: readonly OptionSpec[] = [
  ["--workflow", "run the task as a goal: plan, act within budgets, reflect (one retry)"],
  ["--budget-calls <n>", "workflow: tool calls allowed (default 30)", numberIn(1, 100_000, true)],
  ["--budget-tokens <n>", "workflow: tokens allowed (default 200000)", numberIn(1, 1e9, true)],
  ["--budget-time <s>", "workflow: seconds allowed (default 600)", numberIn(1, 604_800, true)],
];

/** Adds the model and run options to a command. */
export function withModelOptions<C>(cmd: C): C {
  return addOptions(cmd, MODEL_OPTIONS);
}

/** Adds `--workflow` and its budget flags to a command (`run`). */
export function withWorkflowOptions<C>(cmd: C): C {
  return addOptions(cmd, WORKFLOW_OPTIONS);
}

/**
 * `optsWithGlobals()` lets a parent's value win, defaults included (so the
 * chat's default `session: true` undid `run --no-session`): here a value the
 * user gave on the command itself wins.
 */
export function ownOptionsWin(cmd: {
  opts(): object;
  optsWithGlobals(): object;
  getOptionValueSource(key: string): string | undefined;
}): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...cmd.optsWithGlobals() };
  for (const [key, value] of Object.entries(cmd.opts())) {
    const source = cmd.getOptionValueSource(key);
    if (source !== undefined && source !== "default") merged[key] = value;
  }
  return merged;
}
