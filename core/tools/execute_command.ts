/**
 * `execute_command`: runs one command line through the platform shell in the
 * working directory and returns its exit code and output.
 *
 * Output streams to `ctx.onOutput` as it arrives (stdout and stderr
 * interleaved). The model gets the head and tail of long output with the
 * number of lines left out. A timeout or `ctx.signal` stops the whole process
 * tree, and so does the command's own exit: background processes it leaves
 * behind are stopped (those belong in `start_process`).
 *
 * @module
 */
import * as z from "zod";
import type {
  CommandSpawner,
  SpawnedProcess,
  ToolContext,
  ToolResult,
} from "../../interfaces/tool.ts";
import { defineTool, fail, ok } from "./define.ts";
import { commandEnv, killTree, pumpOutput, spawnShell } from "./shell.ts";
import { withEscalation } from "./sandbox_refusal.ts";

/** Seconds a command may run when the call gives no timeout. */
export const DEFAULT_TIMEOUT_S = 120;
/** How long pipes may stay open after the shell exits before the tree is stopped. */
const DRAIN_MS = 300;
/** How long after that the pipes are still read before they are let go. */
const RELEASE_MS = 1_000;

const schema = z.object({
  command: z.string().trim().min(1, "the command is empty"),
  requires_approval: z.boolean().optional(),
  timeout: z.number().int().min(1).max(86_400).optional(),
});

type Args = z.infer<typeof schema>;

/** Runs a shell command to completion. */
export const executeCommand = defineTool<Args>({
  name: "execute_command",
  kind: "exec",
  description:
    `Run a shell command, get exit code and output. requires_approval=true: ask the user anyway; timeout: seconds (default ${DEFAULT_TIMEOUT_S}).`,
  params: [
    { name: "command", description: "Command line", required: true },
    {
      name: "requires_approval",
      description: "true to ask the user even if a rule allows it",
      required: false,
      type: "boolean",
    },
    {
      name: "timeout",
      description: `Seconds before it is stopped (default ${DEFAULT_TIMEOUT_S})`,
      required: false,
      type: "integer",
    },
  ],
  schema,
  example: { command: "npm test", requires_approval: "false" },
  execute: runCommand,
  preview: (args, ctx) => Promise.resolve({ kind: "exec", command: args.command, cwd: ctx.cwd }),
});

type Ending = "exited" | "timeout" | "cancelled";

function runCommand(args: Args, ctx: ToolContext): Promise<ToolResult> {
  return withEscalation(args.command, ctx, (spawner) => runOnce(args, ctx, spawner));
}

async function runOnce(
  args: Args,
  ctx: ToolContext,
  spawner: CommandSpawner | null,
): Promise<ToolResult> {
  if (ctx.signal.aborted) return fail("cancelled", "The command was cancelled before it started");
  let child: SpawnedProcess;
  try {
    child = spawnShell(args.command, { cwd: ctx.cwd, env: commandEnv(ctx.env), spawner });
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return fail("spawn_failed", `Cannot start the command in "${ctx.cwd}": ${why}`);
  }
  const lines = new LineCollector();
  const letGo = new AbortController();
  const pumped = pumpOutput(child, (text) => {
    lines.add(text);
    try {
      ctx.onOutput?.(text);
    } catch {
      // a broken display must not stop the command or lose its output
    }
  }, letGo.signal);
  const timeoutS = args.timeout ?? DEFAULT_TIMEOUT_S;
  const ending = await waitForEnd(child, timeoutS * 1000, ctx.signal);
  if (ending !== "exited") await killTree(child.pid);
  const status = await child.status;
  const drained = await settlesWithin(pumped, DRAIN_MS);
  // Whatever the command left in its group dies with it; only a process
  // still holding the output is worth telling the model about.
  if (ending === "exited" || !drained) await killTree(child.pid);
  // A process that left the group (setsid) can hold the pipes for ever: let them go.
  const released = drained || await settlesWithin(pumped, RELEASE_MS, ctx.signal);
  if (!released) letGo.abort();
  await pumped;
  const held = !released && ending === "exited";
  return report(ending, status, lines.finish(), { timeoutS, drained, held });
}

/** Resolves with how the command ended: by itself, by timeout or cancelled. */
function waitForEnd(
  child: SpawnedProcess,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Ending> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done("timeout"), timeoutMs);
    const onAbort = () => done("cancelled");
    function done(ending: Ending) {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(ending);
    }
    signal.addEventListener("abort", onAbort);
    child.status.then(() => done("exited"));
  });
}

/** True when `p` settles within `ms`; false at the time limit or when `signal` aborts. */
async function settlesWithin(
  p: Promise<unknown>,
  ms: number,
  signal?: AbortSignal,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const late = new Promise<false>((r) => {
    timer = setTimeout(() => r(false), ms);
    onAbort = () => r(false);
    if (signal?.aborted) r(false);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  const result = await Promise.race([p.then(() => true as const), late]);
  clearTimeout(timer);
  if (onAbort) signal?.removeEventListener("abort", onAbort);
  return result;
}

function report(
  ending: Ending,
  status: Deno.CommandStatus,
  output: string,
  info: { timeoutS: number; drained: boolean; held: boolean },
): ToolResult {
  const body = output === "" ? "(no output)" : output;
  const note = info.held
    ? "\n[a process it started in a session of its own still holds its output; output after " +
      "the command ended was not read: use start_process for long-running commands]"
    : info.drained
    ? ""
    : "\n[background processes it left running were stopped; " +
      "use start_process for long-running commands]";
  if (ending === "timeout") {
    const head = `The command timed out after ${info.timeoutS} s; its process tree was killed`;
    return fail("timeout", `${head}\nOutput:\n${body}`, head);
  }
  if (ending === "cancelled") {
    const head = "The command was cancelled by the user; its process tree was killed";
    return fail("cancelled", `${head}\nOutput:\n${body}`, head);
  }
  const how = status.signal ? `was killed by ${status.signal}` : `exited with code ${status.code}`;
  const text = `The command ${how}\nOutput:\n${body}${note}`;
  const display = `${how.replace(/^was /, "")} · ${countLines(output)} lines of output`;
  return status.success ? ok(text, display) : fail("exit_code", text, display);
}

function countLines(text: string): number {
  return text === "" ? 0 : text.split("\n").length;
}

/** Lines kept at the start and at the end of long output. */
const HEAD_LINES = 100;
const TAIL_LINES = 100;
/** Longer lines are cut, so one minified file cannot flood the result. */
const MAX_LINE = 2_000;

/**
 * Keeps the first and last lines of a stream of text in bounded memory and
 * counts what falls between them.
 */
export class LineCollector {
  #head: string[] = [];
  #tail: string[] = [];
  #partial = "";
  #dropped = 0;

  /** Adds a chunk of text (any split, including mid-line). */
  add(text: string): void {
    const parts = (this.#partial + text).split("\n");
    this.#partial = parts.pop() ?? "";
    for (const line of parts) this.#push(line);
    if (this.#partial.length > MAX_LINE * 8) {
      this.#push(this.#partial);
      this.#partial = "";
    }
  }

  /** The collected text: head, a `[... N lines left out ...]` marker, tail. */
  finish(): string {
    if (this.#partial !== "") this.#push(this.#partial);
    this.#partial = "";
    const marker = this.#dropped > 0 ? [`[... ${this.#dropped} lines left out ...]`] : [];
    return [...this.#head, ...marker, ...this.#tail].join("\n");
  }

  #push(raw: string): void {
    // A carriage return redraws the line (progress bars): keep what was drawn last.
    const drawn = raw.replace(/\r+$/, "");
    const last = drawn.slice(drawn.lastIndexOf("\r") + 1);
    const line = last.length > MAX_LINE
      ? `${last.slice(0, MAX_LINE)} [... ${last.length - MAX_LINE} characters cut]`
      : last;
    if (this.#head.length < HEAD_LINES) {
      this.#head.push(line);
      return;
    }
    this.#tail.push(line);
    if (this.#tail.length > TAIL_LINES) {
      this.#tail.shift();
      this.#dropped++;
    }
  }
}
