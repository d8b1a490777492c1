/**
 * Dry-run: the last gate of the pipeline, and the simulator the runner uses
 * for the calls it marks `simulate`.
 *
 * - Reads run as usual, through the session's {@link OverlayFs}.
 * - Writes, edits and deletes of the file tools run for real against that
 *   overlay, so later reads in the same session see them and the disk stays
 *   untouched.
 * - Commands, processes and any other tool that acts outside the overlay
 *   (`chmod`) do not run: the model is told so, with no invented output, and
 *   each is kept for the end-of-run list with every gate's verdict.
 *
 * @example
 * ```ts
 * const dry = createDryRun(realFs);
 * const pipeline = new Pipeline({ gates: [...gates, dry.gate], confirm, autoApprove });
 * const runner = { pipeline, context, backups: null, simulate: dry.simulate };
 * ```
 * @module
 */
import type {
  AnyTool,
  FsPort,
  Gate,
  GateInput,
  Preview,
  ToolCall,
  ToolContext,
  ToolResult,
  Verdict,
} from "../../interfaces/tool.ts";
import { OverlayFs } from "../tools/overlay_fs.ts";
import { runTool } from "../tools/dispatch.ts";

/**
 * Write tools whose every effect goes through `ToolContext.fs` or session
 * state, so they can run against the overlay. Any other write tool is
 * simulated, so a new tool is never run for real by mistake.
 */
export const OVERLAY_TOOLS: ReadonlySet<string> = new Set([
  "write_to_file",
  "edit_file",
  "replace_in_file",
  "delete_file",
  "create_directory",
  "set_env",
  "unset_env",
  "apply_edit_blocks",
]);

/** A call the dry-run did not run, as the end-of-run list shows it. */
export interface SimulatedCommand {
  tool: string;
  /** The command line, or the tool and its parameters. */
  command: string;
  cwd: string;
  /** Every gate's verdict, the approval's answer included. */
  verdicts: Verdict[];
}

/** What the simulator gets: the call as gated. */
export interface SimulateInput {
  call: ToolCall;
  tool: AnyTool;
  args: unknown;
  preview: Preview;
  ctx: ToolContext;
  verdicts: readonly Verdict[];
}

/** One dry-run session. */
export interface DryRun {
  /** The file system tools must use: the overlay over the real one. */
  readonly fs: OverlayFs;
  /** The dry-run gate; it goes last in the pipeline. */
  readonly gate: Gate;
  /** Runs a call the pipeline marked `simulate`. */
  simulate(input: SimulateInput): Promise<ToolResult>;
  /** The calls that were not run, in order. */
  commands(): readonly SimulatedCommand[];
}

/** Whether dry-run runs `tool` against the overlay (else it is not run at all). */
export function runsOnOverlay(tool: AnyTool): boolean {
  return tool.kind === "read" || tool.kind === "meta" || OVERLAY_TOOLS.has(tool.name);
}

/** The dry-run gate alone: passes reads, marks everything else `simulate`. */
export function dryRunGate(): Gate {
  return {
    name: "dry-run",
    check(input: GateInput): Verdict {
      const t = input.tool;
      if (t.kind === "read" || t.kind === "meta") {
        return { gate: "dry-run", action: "pass", rule: "dry-run: reads are real" };
      }
      if (OVERLAY_TOOLS.has(t.name)) {
        return {
          gate: "dry-run",
          action: "simulate",
          rule: "dry-run: changes stay in memory",
          reason: "The change was made in memory only (dry run)",
        };
      }
      return {
        gate: "dry-run",
        action: "simulate",
        rule: t.kind === "exec" ? "dry-run: commands are not run" : "dry-run: not run",
        reason: notRun(t.name),
      };
    },
  };
}

/** Starts a dry-run over `inner` (the real disk). */
export function createDryRun(inner: FsPort): DryRun {
  const fs = new OverlayFs(inner);
  const simulated: SimulatedCommand[] = [];
  return {
    fs,
    gate: dryRunGate(),
    async simulate(input: SimulateInput): Promise<ToolResult> {
      if (runsOnOverlay(input.tool)) {
        const result = await runTool(input.tool, input.args, input.ctx);
        return { ...result, display: `${result.display} (dry run: in memory)` };
      }
      const command = describeCommand(input.call, input.preview);
      simulated.push({
        tool: input.tool.name,
        command,
        cwd: input.preview.kind === "exec" ? input.preview.cwd : input.ctx.cwd,
        verdicts: [...input.verdicts],
      });
      return {
        ok: true,
        output: notRun(input.tool.name),
        display: `not run (dry run): ${firstLine(command)}`,
        code: "simulated",
      };
    },
    commands: () => simulated,
  };
}

/** The message the model gets for a call that was not run. */
export function notRun(tool: string): string {
  const what = tool === "execute_command" || tool === "start_process"
    ? "The command was not run"
    : `${tool} was not run`;
  return `Dry run: ${what}, so there is no output or result. minoc is in dry-run mode: ` +
    "commands and processes are only listed for the user, and file changes stay in memory. " +
    "Do not assume it succeeded or failed; go on with the rest of the task.";
}

/** The command line of an exec call, else `tool param=value …`. */
export function describeCommand(call: ToolCall, preview: Preview): string {
  if (preview.kind === "exec") return preview.command;
  const parts = Object.entries(call.params).map(([k, v]) =>
    `${k}=${Array.isArray(v) ? v.join(",") : v}`
  );
  return [call.tool, ...parts].join(" ");
}

function firstLine(text: string): string {
  const i = text.indexOf("\n");
  return i < 0 ? text : `${text.slice(0, i)} …`;
}
