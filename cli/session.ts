/**
 * Assembles one agent session from resolved settings: provider, tools, gates,
 * recorder, tool context. Commands load this module lazily.
 *
 * @module
 */
import { join } from "node:path";
import type { AgentEvent, RunLimits } from "../interfaces/agent.ts";
import type { SessionRecorder } from "../interfaces/history.ts";
import type { Confirm, ToolContext } from "../interfaces/tool.ts";
import type { AgentDeps, Conversation } from "../core/agent/loop.ts";
import { buildSystemPrompt } from "../core/agent/prompt.ts";
import { homeInputs, homePaths, resolveHome } from "../core/config/paths.ts";
import type { Settings } from "../core/config/settings.ts";
import { createRecorder, nullRecorder } from "../core/history/recorder.ts";
import { type BackupStore, createBackupStore } from "../core/history/backups.ts";
import { backingUpFs } from "../core/history/backup_fs.ts";
import { setupLogs } from "../core/history/logs.ts";
import { createProvider } from "../core/llm/select.ts";
import { formatRetry, withRetry } from "../core/llm/retry.ts";
import { type ApprovalGate, approvalGate } from "../core/permission/approval.ts";
import type { PermissionRule } from "../core/permission/rules.ts";
import { type Mode, modeGate } from "../core/permission/mode_gate.ts";
import { Pipeline } from "../core/permission/pipeline.ts";
import { defaultShell, loadSecurityConfig, securityGate } from "../core/permission/security.ts";
import { CliError, EXIT } from "./io.ts";
import { createFileTracker } from "../core/tools/file_tracker.ts";
import { realFs } from "../core/tools/fs_port.ts";
import { tools } from "../core/tools/mod.ts";
import { createProcessTable, installExitCleanup } from "../core/tools/process_table.ts";

/** How a session is opened. */
export interface SessionOptions {
  settings: Settings;
  mode: Mode;
  /** Record a session file (false with `--no-session`). */
  record: boolean;
  /** `--yes`. */
  autoApprove: boolean;
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
  /** Switches plan/agent mode for later calls and rebuilds the system prompt. */
  setMode(mode: Mode): void;
  mode(): Mode;
  close(): Promise<void>;
}

/** Opens a session in `settings.cwd`. */
export async function openSession(o: SessionOptions): Promise<AgentSession> {
  const cwd = o.settings.cwd;
  const home = await resolveHome(homeInputs());
  if (home.warning) o.warn(home.warning);
  const paths = homePaths(home.dir);
  const security = await loadSecurityConfig(join(paths.config, "security.json"));
  if (!security.ok) throw new CliError(security.error, EXIT.usage);
  const logs = await setupLogs(paths.logs, { debug: false }).catch(() => null);
  let mode: Mode = o.mode;
  const userHome = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "/";
  const prompt = () =>
    buildSystemPrompt({
      tools,
      mode,
      cwd,
      os: `${Deno.build.os} (${Deno.build.arch})`,
      date: new Date().toISOString().slice(0, 10),
      projectInstructions: projectInstructions(cwd),
      customInstructions: o.settings.customInstructions,
    });
  const systemPrompt = prompt();
  const recorder = await openRecorder(o, paths.sessions, systemPrompt, () => mode);
  const backups = recorder.path === null
    ? null
    : await createBackupStore(join(paths.backups, recorder.sessionId), recorder.sessionId);
  const fs = backups ? backingUpFs(realFs, backups) : realFs;
  const processes = createProcessTable();
  const uninstall = installExitCleanup(processes);
  const files = createFileTracker();
  const env = new Map<string, string | null>();
  const approval = approvalGate({
    projectDir: cwd,
    homeDir: home.dir,
    extraRules: o.extraRules,
    onWarning: o.warn,
  });
  const pipeline = new Pipeline({
    gates: [
      modeGate(() => mode),
      securityGate({
        cwd,
        home: userHome,
        shell: defaultShell(Deno.env.toObject()),
        config: security.config,
      }),
      approval,
    ],
    confirm: o.confirm,
    autoApprove: o.autoApprove,
  });
  const context = (signal: AbortSignal): ToolContext => ({
    cwd,
    signal,
    fs,
    files,
    env,
    processes,
    onOutput: o.onOutput,
    ask: o.ask,
  });
  const provider = withRetry(
    createProvider({
      baseURL: o.settings.baseURL,
      apiKey: o.settings.apiKey,
      params: o.settings.params,
      quirks: o.settings.modelQuirks,
    }),
    o.settings.retry,
    { onRetry: (info) => o.warn(formatRetry(info)) },
  );
  const limits: RunLimits = { maxTurns: o.settings.maxTurns, maxParseErrors: 3 };
  const convo: Conversation = { messages: [{ role: "system", content: systemPrompt }] };
  return {
    deps: {
      provider,
      tools,
      runner: { pipeline, context, backups },
      recorder,
      limits,
      emit: o.emit,
    },
    convo,
    recorder,
    cwd,
    homeDir: home.dir,
    approval,
    backups,
    mode: () => mode,
    setMode(next: Mode) {
      mode = next;
      convo.messages[0] = { role: "system", content: prompt() };
    },
    async close() {
      await processes.killAll();
      uninstall();
      await recorder.close();
      await logs?.dispose();
    },
  };
}

async function openRecorder(
  o: SessionOptions,
  sessionsDir: string,
  systemPrompt: string,
  mode: () => Mode,
): Promise<SessionRecorder> {
  const base = {
    sessionsDir,
    model: o.settings.params.model,
    projectPath: o.settings.cwd,
    mode: mode(),
    systemPrompt,
  };
  if (!o.record) return nullRecorder(base);
  try {
    return await createRecorder(base);
  } catch (e) {
    o.warn(`Cannot record the session in "${sessionsDir}": ${(e as Error).message}`);
    return nullRecorder(base);
  }
}

function projectInstructions(cwd: string): string | undefined {
  const parts: string[] = [];
  for (const name of ["AGENTS.md", join(".minoc", "instructions.md")]) {
    try {
      parts.push(Deno.readTextFileSync(join(cwd, name)));
    } catch {
      // absent: nothing to add
    }
  }
  return parts.length ? parts.join("\n\n") : undefined;
}
