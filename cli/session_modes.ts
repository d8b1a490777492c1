/**
 * Debug, dry-run and step mode for one session, as decorators and gates the
 * session wires in: a logging provider, a timed recorder and an event tee
 * (debug), an overlay file system, a last gate and a simulator (dry-run), a
 * stepper the runner consults (step). A mode that is off adds nothing: its
 * modules are not even loaded, so a plain session's first request does not
 * wait for them.
 *
 * @example
 * ```ts
 * const modes = await openModes(o, home.dir, cwd);
 * const fs = modes.dry?.fs ?? realFs;
 * const emit = modes.emit(o.emit);
 * ```
 * @module
 */
import type { AgentEvent, LlmProvider } from "../interfaces/agent.ts";
import type { SessionRecorder } from "../interfaces/history.ts";
import type { Gate } from "../interfaces/tool.ts";
import { loadDebugConfig } from "../core/config/debug.ts";
import type { Settings } from "../core/config/settings.ts";
import type { DebugTrace } from "../core/history/debug_trace.ts";
import { createWireTap, type WireSink } from "../core/llm/wire.ts";
import type { DryRun } from "../core/permission/dry_run.ts";
import type { Stepper, StepPrompt } from "../core/permission/step.ts";
import { realFs } from "../core/tools/fs_port.ts";
import { CliError, EXIT } from "./io.ts";

/** The mode options of a session. */
export interface ModeOptions {
  /** `--dry-run`: file changes stay in memory, commands are not run. */
  dryRun?: boolean;
  /** `--debug`; `.minoc/config/debug.json` can also turn it on. */
  debug?: boolean;
  /** Where debug mode's compact phase lines go (a newline is added). */
  debugLine?(line: string): void;
  /** Step mode's prompt (the chat on a terminal), and whether stepping starts on. */
  step?: { prompt: StepPrompt; on: boolean; onAbort?(): void };
}

/** The modes of one open session. */
export interface SessionModes {
  /** Whether debug mode is on (`debug.log` is written). */
  readonly debug: boolean;
  readonly dry: DryRun | null;
  readonly stepper: Stepper | null;
  /** Gates to put after approval. */
  gates(): Gate[];
  /**
   * The provider `make` creates, wrapped for debug logging when debug is on
   * (then `make` gets a wire sink, so the log shows the exact HTTP traffic).
   */
  provider(make: (wire?: WireSink) => LlmProvider, settings: Settings): LlmProvider;
  /** The recorder the loop uses; timed when debug is on. */
  recorder(inner: SessionRecorder): SessionRecorder;
  /** The event sink the loop uses; also traced when debug is on. */
  emit(inner: (ev: AgentEvent) => void): (ev: AgentEvent) => void;
}

/** Reads debug.json and sets up the modes `o` asks for. */
export async function openModes(
  o: ModeOptions,
  homeDir: string,
  cwd: string,
): Promise<SessionModes> {
  const cfg = await loadDebugConfig(homeDir, cwd);
  if (!cfg.ok) throw new CliError(cfg.message, EXIT.usage);
  const debug = o.debug === true || cfg.config.enabled;
  const terminal = cfg.config.terminal ? o.debugLine : undefined;
  let trace: DebugTrace | null = null;
  const [log, dryRun, step] = await Promise.all([
    debug
      ? Promise.all([import("../core/history/debug_trace.ts"), import("../core/llm/debug.ts")])
      : null,
    o.dryRun ? import("../core/permission/dry_run.ts") : null,
    o.step ? import("../core/permission/step.ts") : null,
  ]);
  const dry = dryRun ? dryRun.createDryRun(realFs) : null;
  return {
    debug,
    dry,
    stepper: step && o.step ? new step.Stepper(o.step.prompt, o.step) : null,
    gates: () => (dry ? [dry.gate] : []),
    provider(make, settings) {
      if (!log) return make();
      const tap = createWireTap();
      return log[1].withDebugLog(make(tap.sink), {
        params: settings.params,
        hasKey: settings.apiKey !== "",
        tap,
      });
    },
    recorder(inner) {
      if (!log) return inner;
      trace = new log[0].DebugTrace({ sessionId: inner.sessionId, terminal });
      return trace.timeRecorder(inner);
    },
    emit(inner) {
      if (!debug) return inner;
      return (ev) => {
        inner(ev);
        trace?.event(ev);
      };
    },
  };
}
