/**
 * `minoc replay <session> [--model …] [--json]`: re-runs a recorded session's
 * model replies (or, with `--model`, asks that model at each recorded turn)
 * through today's parser and gates in dry-run, and reports where a call, a
 * verdict or a result differs. Exit 0 when nothing differs, 1 when something
 * does, 2 for a bad session or option.
 *
 * @example
 * ```ts
 * await replayCommand(io, { sessionsDir, homeDir }).parseAsync(["2026112", "--json"], { from: "user" });
 * ```
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { resolve } from "node:path";
import type { LlmProvider } from "../../interfaces/agent.ts";
import type { SessionFile } from "../../interfaces/history.ts";
import type { AnyTool, ToolCall } from "../../interfaces/tool.ts";
import { findSession } from "../../core/history/lookup.ts";
import { replaySession } from "../../core/agent/session_replay.ts";
import { loadSession } from "../../core/history/store.ts";
import { replayProvider, repliesFromSession } from "../../core/llm/replay.ts";
import { createProvider } from "../../core/llm/select.ts";
import { formatRetry, withRetry } from "../../core/llm/retry.ts";
import { approvalGate } from "../../core/permission/approval.ts";
import { createDryRun } from "../../core/permission/dry_run.ts";
import { modeGate } from "../../core/permission/mode_gate.ts";
import { defaultShell, loadSecurityConfig, securityGate } from "../../core/permission/security.ts";
import { blockCall } from "../../core/protocol/bridge_format.ts";
import { applyEditBlocks } from "../../core/tools/apply_edit_blocks.ts";
import { createFileTracker } from "../../core/tools/file_tracker.ts";
import { realFs } from "../../core/tools/fs_port.ts";
import { tools } from "../../core/tools/mod.ts";
import { createProcessTable } from "../../core/tools/process_table.ts";
import { CliError, type CliIO, EXIT, warn } from "../io.ts";
import { numberIn } from "../options.ts";
import { formatReplay } from "../ui/replay_report.ts";
import { settingsFrom } from "./common.ts";
import { visible } from "../../core/protocol/visible.ts";

/** Where replay finds sessions and configuration. */
export interface ReplayEnv {
  /** `<home>/history/sessions`. */
  sessionsDir: string;
  /** The `.minoc` home (security rules, permission rules). */
  homeDir: string;
}

/** Options of `replay`. */
export interface ReplayOptions {
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  temperature?: number;
  maxTokens?: number;
  cwd?: string;
  json?: true;
}

const NO_USER = "No user is available to answer; decide yourself and continue.";

/** Builds the `replay` command. */
export function replayCommand(io: CliIO, env: ReplayEnv): Command {
  const cmd = new Command("replay")
    .description(
      "re-run a recorded session through today's parser and gates (dry-run) and report differences",
    )
    .argument("<session>", "a session id (or unique prefix), or the path of a session file")
    .option(
      "--model <name>",
      "ask this model at each recorded turn instead of replaying its replies",
    )
    .option("--base-url <url>", "API base URL for --model (env OPENAI_BASE_URL)")
    .option("--api-key <key>", "API key for --model (env OPENAI_API_KEY)")
    .option("--temperature <n>", "sampling temperature for --model, 0 to 2", numberIn(0, 2))
    .option("--max-tokens <n>", "maximum tokens per reply for --model", numberIn(1, 1e7, true))
    .option("--cwd <dir>", "directory to replay in (default: the session's own)")
    .option("--json", "print the report as one JSON object")
    .action(async (ref, opts) => {
      const session = await readSession(env.sessionsDir, ref);
      const cwd = await workingDir(opts.cwd, session.projectPath);
      const provider = await providerFor(
        session,
        opts,
        cwd,
        (m) => warn(io, m),
      );
      const report = await replaySession(
        session,
        await replayDeps(session, cwd, provider, env.homeDir),
        opts.model ? "model" : "recorded",
      );
      if (opts.json) {
        io.out(JSON.stringify({ ...report, cwd }) + "\n");
      } else {
        const source = opts.model
          ? `model ${provider.model}`
          : `recorded replies of ${session.model}`;
        io.out(visible(
          formatReplay(report, `Replay of session ${session.sessionId} (${source}) in ${cwd}`),
        ));
      }
      io.exitCode = report.differences > 0 ? EXIT.failed : EXIT.ok;
    });
  return cmd as unknown as Command;
}

/** A session by file path, id or unique id prefix; usage error otherwise. */
async function readSession(sessionsDir: string, ref: string): Promise<SessionFile> {
  const asFile = await Deno.stat(ref).catch(() => null);
  let path = ref;
  if (!asFile?.isFile) {
    const found = await findSession(sessionsDir, ref);
    if (!found.ok) throw new CliError(found.message, EXIT.usage);
    path = found.summary.path;
  }
  try {
    return await loadSession(path);
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.usage);
  }
}

async function workingDir(flag: string | undefined, projectPath: string): Promise<string> {
  for (const dir of flag !== undefined ? [flag] : [projectPath, Deno.cwd()]) {
    const info = dir ? await Deno.stat(resolve(dir)).catch(() => null) : null;
    if (info?.isDirectory) return await Deno.realPath(resolve(dir));
  }
  throw new CliError(`Working directory "${flag}" does not exist`, EXIT.usage);
}

async function providerFor(
  session: SessionFile,
  opts: ReplayOptions,
  cwd: string,
  warn: (message: string) => void,
): Promise<LlmProvider> {
  if (!opts.model) {
    for (const flag of ["baseUrl", "apiKey", "temperature", "maxTokens"] as const) {
      if (opts[flag] !== undefined) {
        throw new CliError(
          `--${kebab(flag)} needs --model: it sets up the model to ask`,
          EXIT.usage,
        );
      }
    }
    return replayProvider(repliesFromSession(session), {
      model: session.model,
      endpoint: `session ${session.sessionId}`,
    });
  }
  const s = await settingsFrom({ ...opts, cwd });
  const inner = createProvider({
    baseURL: s.baseURL,
    apiKey: s.apiKey,
    params: s.params,
    quirks: s.modelQuirks,
  });
  return withRetry(inner, s.retry, { onRetry: (info) => warn(formatRetry(info)) });
}

/** Today's tools and gates, with the dry-run gate last and its overlay as the file system. */
async function replayDeps(
  session: SessionFile,
  cwd: string,
  provider: LlmProvider,
  homeDir: string,
) {
  const security = await loadSecurityConfig(`${homeDir}/config/security.json`);
  if (!security.ok) throw new CliError(security.error, EXIT.usage);
  const dry = createDryRun(realFs);
  const files = createFileTracker();
  const processes = createProcessTable();
  const envVars = new Map<string, string | null>();
  const blocks = usesEditBlocks(session);
  const gates = [
    modeGate(() => session.mode),
    securityGate({
      cwd,
      home: Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "/",
      shell: defaultShell(Deno.env.toObject()),
      config: security.config,
    }),
    approvalGate({ projectDir: cwd, homeDir }),
    dry.gate,
  ];
  return {
    provider,
    tools: blocks ? [...tools, applyEditBlocks as AnyTool] : tools,
    gates,
    context: (signal: AbortSignal) => ({
      cwd,
      signal,
      fs: dry.fs,
      files,
      env: envVars,
      processes,
      ask: () => Promise.resolve(NO_USER),
    }),
    simulate: dry.simulate,
    blockCall: blocks
      ? (text: string): ToolCall | null => blockCall(text, { directives: false })
      : undefined,
  };
}

function usesEditBlocks(session: SessionFile): boolean {
  return session.messages.some((m) => m.call?.tool === applyEditBlocks.name);
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
