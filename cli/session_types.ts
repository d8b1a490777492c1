/**
 * What opening a session takes and what an open session offers: the
 * contract between `cli/session.ts` and the chat, `run`, ACP and replay.
 *
 * @module
 */
import type { AgentEvent } from "../interfaces/agent.ts";
import type { SessionRecorder } from "../interfaces/history.ts";
import type { AnyTool, Confirm } from "../interfaces/tool.ts";
import type { AgentDeps, Conversation } from "../core/agent/loop.ts";
import type { ProjectAnalysis } from "../core/agent/project.ts";
import type { Settings } from "../core/config/settings.ts";
import type { BackupStore } from "../core/history/backups.ts";
import type { ApprovalGate } from "../core/permission/approval.ts";
import type { PermissionRule } from "../core/permission/rules.ts";
import type { Mode } from "../core/permission/mode_gate.ts";
import type { ModeOptions } from "./session_modes.ts";
import type { DryRun } from "../core/permission/dry_run.ts";
import type { Stepper } from "../core/permission/step.ts";
import type { ResumeTarget } from "./resume.ts";
import type { BridgeSetup } from "./session_bridge.ts";
import type { YesNo } from "./session_sandbox.ts";
import type { SandboxMode } from "../core/sandbox/policy.ts";
import type { ServerView } from "../core/mcp/hub.ts";
import type { ServerConfig } from "../core/mcp/config.ts";

/** How a session is opened (`ModeOptions`: debug, dry-run, step). */
export interface SessionOptions extends ModeOptions {
  settings: Settings;
  mode: Mode;
  /** Record a session file (false with `--no-session`). */
  record: boolean;
  /** `--yes`. */
  autoApprove: boolean;
  /** `--sandbox` (default workspace-write). */
  sandbox?: SandboxMode;
  /** A yes/no question in the terminal (sandbox off, no sandbox, escalation); absent in `run`. */
  yesNo?: YesNo;
  /** The approval prompt; null in `run` or without a terminal. */
  confirm: Confirm | null;
  /** Answers ask_followup_question. */
  ask(question: string): Promise<string>;
  emit(event: AgentEvent): void;
  /** Live command output for the terminal. */
  onOutput?(text: string): void;
  /** One-line warnings for the user (e.g. the `.minoc` fallback). */
  warn(message: string): void;
  /** In-memory rules from `--allow` / `--deny`. */
  extraRules?: PermissionRule[];
  /** An earlier session to continue (`--continue`, `--resume`, the pick list). */
  resume?: ResumeTarget;
  /** The provider (`--provider`), edit blocks and the copy/paste bridge's ports. */
  bridge?: BridgeSetup;
  /**
   * When MCP servers start: `open` (the chat: while the user types) or
   * `first-request` (default: once the first request is on its way, so
   * starting them never delays it; only a server whose tools were never
   * listed before is waited for, so the model can see them).
   */
  mcpStart?: "open" | "first-request";
  /** MCP servers named by the caller (an editor over ACP), besides the configured ones. */
  mcpServers?: ServerConfig[];
}

/** An open session: what the loop needs, and how to close it. */
export interface AgentSession {
  deps: AgentDeps;
  convo: Conversation;
  recorder: SessionRecorder;
  /** The working directory. */
  cwd: string;
  /** The `.minoc` home. */
  homeDir: string;
  /** The approval gate (keeps "allow always" rules). */
  approval: ApprovalGate;
  /** Undo backups of this session's file changes (null when not recorded). */
  backups: BackupStore | null;
  /** `--dry-run`: the overlay and what was not run (null otherwise). */
  dryRun: DryRun | null;
  /** Step mode (null when there is no terminal to step in). */
  stepper: Stepper | null;
  /** Switches plan/agent mode for later calls and rebuilds the system prompt. */
  setMode(mode: Mode): void;
  mode(): Mode;
  /** The settings in use (they change with {@link AgentSession.switchModel}). */
  settings(): Settings;
  /** Talks to another model from the next request on: provider, quirks, instructions, window. */
  switchModel(next: Settings): void;
  /** The project analysis in the system prompt (core/agent/project.ts). */
  project(): ProjectAnalysis;
  /** Analyses the working directory again and rebuilds the system prompt (`/refresh`). */
  refresh(): Promise<ProjectAnalysis>;
  /** `openai` or `bridge`: the provider in use. */
  providerName(): string;
  /** Uses another provider from the next request on (`/provider`); throws with a message. */
  setProvider(name: string): Promise<void>;
  /** The MCP servers, their state and tools (`/mcp`). */
  mcpServers(): ServerView[];
  /**
   * Wraps every tool the loop sees, now and whenever the tool list changes
   * (MCP servers starting, another provider): the editor agent uses it.
   */
  wrapTools(wrap: (tool: AnyTool) => AnyTool): void;
  close(): Promise<void>;
}
