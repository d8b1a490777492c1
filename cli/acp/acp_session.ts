/**
 * One ACP session: a minoc session (the same configuration, project
 * instructions, skills and gates as the terminal chat) whose events become
 * `session/update`s, whose approval prompt is `session/request_permission`,
 * and whose turn `session/cancel` stops.
 *
 * @example
 * ```ts
 * const s = await AcpSession.open(link, { settings, mode: "agent" });
 * const stop = await s.prompt([{ type: "text", text: "Add a test" }]);
 * ```
 * @module
 */
import type { ServerConfig } from "../../core/mcp/config.ts";
import {
  type ContentBlock,
  methods,
  RequestError,
  type RequestPermissionRequest,
  type SessionModeState,
  type SessionUpdate,
  type StopReason,
} from "@agentclientprotocol/sdk";
import type { AgentContext } from "@agentclientprotocol/sdk";
import type { Outcome } from "../../interfaces/agent.ts";
import type { AnyTool, FsPort, Preview, ToolContext } from "../../interfaces/tool.ts";
import { backingUpFs } from "../../core/history/backup_fs.ts";
import { EDITOR_FILE_TOOLS } from "./editor_fs.ts";
import type { Settings } from "../../core/config/settings.ts";
import type { Mode } from "../../core/permission/mode_gate.ts";
import { runTask } from "../../core/agent/loop.ts";
import type { AgentSession } from "../session.ts";
import type { ResumeTarget } from "../resume.ts";
import { acpConfirm } from "./permission.ts";
import { acpStep } from "./step.ts";
import { promptText } from "./prompt_text.ts";
import { UpdateMapper } from "./updates.ts";

/** What every session of one connection shares. */
export interface AcpLink {
  client: AgentContext;
  /** `--yes`, `--dry-run`, `--debug`, `--step`, `--no-session`. */
  flags: { yes?: boolean; dryRun?: boolean; debug?: boolean; step?: boolean; record: boolean };
  /** The settings of a session in `cwd`, with another model when named; throws a RequestError. */
  settings(cwd: string, model?: string): Promise<Settings>;
  /** The editor's file system for the file tools, when it offers one (see editor_fs.ts). */
  fs?(sessionId: () => string): FsPort | undefined;
  /** Warnings for the log (standard error). */
  warn(message: string): void;
}

const NO_USER = "The question was shown in the editor, but it cannot be answered inside this " +
  "turn: decide yourself, or end the turn by replying without a tool call; the user's answer " +
  "then comes as the next message.";

/** The modes an editor can pick. */
export function modeState(current: Mode): SessionModeState {
  return {
    currentModeId: current,
    availableModes: [
      { id: "agent", name: "Agent", description: "Reads, edits and runs commands, asking first" },
      { id: "plan", name: "Plan", description: "Read-only tools; the answer is a plan" },
    ],
  };
}

/** An open ACP session. */
export class AcpSession {
  #turn: AbortController | null = null;
  #chain: Promise<void> = Promise.resolve();

  private constructor(
    readonly agent: AgentSession,
    readonly updates: UpdateMapper,
    private readonly link: AcpLink,
  ) {}

  /** The session id (minoc's session id, so `session/load` finds it). */
  get id(): string {
    return this.agent.recorder.sessionId;
  }

  /** Opens a minoc session in `settings.cwd`, continuing `resume` when given. */
  static async open(
    link: AcpLink,
    o: { settings: Settings; mode: Mode; resume?: ResumeTarget; mcpServers?: ServerConfig[] },
  ): Promise<AcpSession> {
    const { openSession } = await import("../session.ts");
    // deno-lint-ignore prefer-const
    let self: AcpSession | undefined;
    const send = (u: SessionUpdate) => self?.send(u);
    const updates = new UpdateMapper({ cwd: o.settings.cwd, send });
    const ask = (params: Omit<RequestPermissionRequest, "sessionId">, signal?: AbortSignal) =>
      link.client.request(
        methods.client.session.requestPermission,
        { ...params, sessionId: self?.id ?? "" },
        { cancellationSignal: signal ?? self?.turnSignal, stopWaitingOnCancel: true },
      );
    const view = { call: () => updates.current, note: (m: string) => updates.thought(m) };
    const onAbort = () => self?.cancel();
    const agent = await openSession({
      settings: o.settings,
      mode: o.mode,
      resume: o.resume,
      // A server not seen before is waited for (10 s at most), so the first request lists its tools.
      mcpServers: o.mcpServers,
      record: link.flags.record,
      autoApprove: link.flags.yes === true,
      confirm: acpConfirm({
        request: (params, signal) => ask(params, signal),
        call: () => updates.current,
        keeper: () => self?.agent.approval,
        turn: () => self?.turnSignal,
      }),
      ask: (question) => {
        updates.message(`\n${question}\n`);
        return Promise.resolve(NO_USER);
      },
      emit: (ev) => updates.event(ev),
      onOutput: (t) => updates.output(t),
      warn: link.warn,
      dryRun: link.flags.dryRun === true,
      debug: link.flags.debug === true,
      step: link.flags.step
        ? { prompt: acpStep({ request: (p) => ask(p), ...view }), on: true, onAbort }
        : undefined,
    });
    self = new AcpSession(agent, updates, link);
    self.#wireTools();
    return self;
  }

  /**
   * Tells the editor each call's preview, and points the file tools at the
   * editor's file system (under the undo backups) when it offers one.
   */
  #wireTools(): void {
    const { agent, updates, link } = this;
    const editor = agent.dryRun ? undefined : link.fs?.(() => this.id);
    const fileFs = editor && (agent.backups ? backingUpFs(editor, agent.backups) : editor);
    agent.wrapTools((t) =>
      observed(t, updates, fileFs && EDITOR_FILE_TOOLS.has(t.name) ? fileFs : undefined)
    );
  }

  /** The running turn's signal (undefined between turns). */
  get turnSignal(): AbortSignal | undefined {
    return this.#turn?.signal;
  }

  /** Queues an update; updates go out in order. */
  send(update: SessionUpdate): void {
    const params = { sessionId: this.id, update };
    this.#chain = this.#chain
      .then(() => this.link.client.notify(methods.client.session.update, params))
      .catch((e) => this.link.warn(`Cannot send an update: ${(e as Error)?.message ?? e}`));
  }

  /** Resolves once every queued update was written. */
  flush(): Promise<void> {
    return this.#chain;
  }

  /** Runs one user request to its end; `request` aborting (the request was cancelled) cancels it. */
  async prompt(blocks: readonly ContentBlock[], request?: AbortSignal): Promise<StopReason> {
    if (this.#turn) {
      throw RequestError.invalidRequest(
        { sessionId: this.id },
        `session "${this.id}" is already running a prompt: cancel it or wait for its end`,
      );
    }
    const text = promptText(blocks);
    const turn = new AbortController();
    this.#turn = turn;
    const stop = () => turn.abort();
    request?.addEventListener("abort", stop);
    let outcome: Outcome;
    try {
      outcome = await runTask(this.agent.deps, this.agent.convo, text, turn.signal);
    } finally {
      this.#turn = null;
      request?.removeEventListener("abort", stop);
    }
    await this.flush();
    return turn.signal.aborted ? "cancelled" : stopReason(outcome);
  }

  /** Stops the running turn: the reply stream and any running tool. */
  cancel(): void {
    this.#turn?.abort();
  }

  /** Switches between agent and plan mode. */
  setMode(modeId: string): void {
    if (modeId !== "agent" && modeId !== "plan") {
      throw RequestError.invalidParams(
        { field: "modeId" },
        `modeId "${modeId}" is not a mode: expected "agent" or "plan"`,
      );
    }
    this.agent.setMode(modeId);
    this.send({ sessionUpdate: "current_mode_update", currentModeId: modeId });
  }

  /** Talks to another model from the next request on (as `/model` does in the chat). */
  async setModel(name: string): Promise<void> {
    const before = this.agent.settings().params.model;
    if (name === before) return;
    this.agent.switchModel(await this.link.settings(this.agent.cwd, name));
    await this.agent.recorder.append({
      role: "system",
      content: `Model switched from "${before}" to "${name}"`,
      event: "model_switch",
    });
  }

  /** Cancels the turn and closes the minoc session (its processes, recorder, logs). */
  async close(): Promise<void> {
    this.cancel();
    await this.agent.close();
  }
}

function stopReason(outcome: Outcome): StopReason {
  if (outcome.kind === "aborted") return "cancelled";
  if (outcome.kind === "max_turns") return "max_turn_requests";
  return "end_turn";
}

/**
 * The tool, with its preview also told to the editor (locations, diff), and
 * working on `fs` (the editor's file system, backed up for undo) when given.
 */
function observed(tool: AnyTool, updates: UpdateMapper, fs?: FsPort): AnyTool {
  const on = (ctx: ToolContext): ToolContext => fs ? { ...ctx, fs } : ctx;
  return {
    ...tool,
    execute: (args, ctx) => tool.execute(args, on(ctx)),
    async preview(args, ctx) {
      const preview: Preview = tool.preview ? await tool.preview(args, on(ctx)) : { kind: "none" };
      updates.previewed((args ?? {}) as Record<string, unknown>, preview);
      return preview;
    },
  };
}
